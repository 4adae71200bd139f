#include "twin/plan_triangles.h"

#include <algorithm>

#include "twin/plan_overlap.h"

#include "poly_geometry.h"
#include "twin/twin_geometry.h"

namespace waymesh::twin {
namespace {

// An ear thinner than this (m², doubled) is not cut: it would leave a sliver whose
// orientation float rounding can flip.
constexpr double kMinEarArea2 = 1e-8;

}  // namespace

PlanTriangles::PlanTriangles(const TileView& tile) : tile_(tile), at_vertex_(tile.vertices.size()) {
  absl::flat_hash_map<uint32_t, uint32_t> group_of;  // area << 16 | flags -> group
  for (uint32_t p = 0; p < tile.poly_count(); ++p) {
    const uint32_t key = uint32_t(tile.poly_area[p]) << 16 | tile.poly_flags[p];
    const auto [it, added] = group_of.try_emplace(key, uint32_t(groups_.size()));
    if (added) groups_.push_back(Group{tile.poly_area[p], tile.poly_flags[p]});
    const uint32_t s = tile.poly_start[p], n = tile.corner_count(p);
    const uint32_t island = tile.poly_island.empty() ? 0 : tile.poly_island[p];
    const uint32_t apex = FanApex(p);
    for (uint32_t i = 1; i + 1 < n; ++i) {
      const uint32_t b = (apex + i) % n, c = (apex + i + 1) % n;
      Add(PlanTriangle{{tile.poly_verts[s + apex], tile.poly_verts[s + b], tile.poly_verts[s + c]},
                       it->second, island, {p}});
    }
  }
}

uint32_t PlanTriangles::FanApex(uint32_t p) const {
  const uint32_t n = tile_.corner_count(p);
  const auto corner = [&](uint32_t i) { return tile_.corner(p, i % n); };
  for (uint32_t apex = 0; apex < n; ++apex) {
    bool thin = false;
    for (uint32_t i = 1; i + 1 < n && !thin; ++i) {
      thin =
          internal::Area2XZ(corner(apex), corner(apex + i), corner(apex + i + 1)) <= kMinEarArea2;
    }
    if (!thin) return apex;
  }
  return 0;  // every fan has a sliver (straight corners on every side): the first will do
}

uint32_t PlanTriangles::TriangleOf(uint32_t a, uint32_t b) const {
  const auto it = edge_tri_.find(EdgeKey(a, b));
  return it == edge_tri_.end() ? kNoTriangle : it->second;
}

void PlanTriangles::Add(PlanTriangle t) {
  const uint32_t id = uint32_t(tris_.size());
  for (int k = 0; k < 3; ++k) {
    edge_tri_[EdgeKey(t.v[k], t.v[(k + 1) % 3])] = id;
    at_vertex_[t.v[k]].push_back(id);
  }
  tris_.push_back(t);
}

void PlanTriangles::Kill(uint32_t t) {
  PlanTriangle& tri = tris_[t];
  tri.alive = false;
  for (int k = 0; k < 3; ++k) {
    edge_tri_.erase(EdgeKey(tri.v[k], tri.v[(k + 1) % 3]));
    std::vector<uint32_t>& at = at_vertex_[tri.v[k]];
    at.erase(std::find(at.begin(), at.end(), t));
  }
}

bool PlanTriangles::RingAround(uint32_t v, std::vector<uint32_t>* ring) const {
  ring->clear();
  const std::vector<uint32_t>& fan = at_vertex_[v];
  if (fan.size() < 3) return false;
  const uint32_t start = fan.front(), group = tris_[start].group;
  uint32_t cur = start;
  do {
    const PlanTriangle& t = tris_[cur];
    const int k = t.v[0] == v ? 0 : t.v[1] == v ? 1 : 2;
    ring->push_back(t.v[(k + 1) % 3]);
    cur = TriangleOf(v, t.v[(k + 2) % 3]);  // across the edge back to v
    if (cur == kNoTriangle || tris_[cur].group != group || ring->size() > fan.size()) {
      return false;
    }
  } while (cur != start);
  if (ring->size() != fan.size()) return false;  // a second fan at v (a pinch)
  std::vector<uint32_t> sorted = *ring;
  std::sort(sorted.begin(), sorted.end());
  return std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
}

bool PlanTriangles::Ears(std::vector<uint32_t> ring,
                         std::vector<std::array<uint32_t, 3>>* out) const {
  out->clear();
  const auto pos = [&](uint32_t v) { return tile_.vertices[v]; };
  while (ring.size() > 3) {
    const size_t n = ring.size();
    size_t ear = n;
    for (size_t i = 0; i < n && ear == n; ++i) {
      const uint32_t a = ring[(i + n - 1) % n], b = ring[i], c = ring[(i + 1) % n];
      if (internal::Area2XZ(pos(a), pos(b), pos(c)) <= kMinEarArea2) continue;
      bool blocked = false;
      for (size_t j = 0; j < n && !blocked; ++j) {
        const uint32_t q = ring[j];
        if (q == a || q == b || q == c) continue;
        blocked = internal::Area2XZ(pos(a), pos(b), pos(q)) >= 0 &&
                  internal::Area2XZ(pos(b), pos(c), pos(q)) >= 0 &&
                  internal::Area2XZ(pos(c), pos(a), pos(q)) >= 0;
      }
      if (!blocked) ear = i;
    }
    if (ear == n) return false;
    out->push_back({ring[(ear + n - 1) % n], ring[ear], ring[(ear + 1) % n]});
    ring.erase(ring.begin() + ptrdiff_t(ear));
  }
  if (internal::Area2XZ(pos(ring[0]), pos(ring[1]), pos(ring[2])) <= kMinEarArea2) return false;
  out->push_back({ring[0], ring[1], ring[2]});
  return true;
}

std::vector<uint32_t> PlanTriangles::EarSources(const std::array<uint32_t, 3>& e,
                                               const std::vector<uint32_t>& fan) const {
  const Vec3 ear[3] = {tile_.vertices[e[0]], tile_.vertices[e[1]], tile_.vertices[e[2]]};
  std::vector<uint32_t> out;
  std::vector<Vec3> poly;
  for (const uint32_t t : fan) {
    for (const uint32_t p : tris_[t].sources) {
      if (std::find(out.begin(), out.end(), p) != out.end()) continue;
      poly.clear();
      for (uint32_t i = 0; i < tile_.corner_count(p); ++i) poly.push_back(tile_.corner(p, i));
      if (PlanOverlap(ear, poly)) out.push_back(p);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

uint32_t PlanTriangles::RemoveInnerVertices() {
  uint32_t removed = 0;
  std::vector<uint32_t> ring, fan;
  std::vector<std::array<uint32_t, 3>> ears;
  for (uint32_t v = 0; v < at_vertex_.size(); ++v) {
    if (!RingAround(v, &ring) || !Ears(ring, &ears)) continue;
    fan = at_vertex_[v];
    const PlanTriangle like = tris_[fan.front()];
    std::vector<std::vector<uint32_t>> sources;
    for (const auto& e : ears) sources.push_back(EarSources(e, fan));
    for (const uint32_t t : fan) Kill(t);
    // The ring's diagonals must be new edges (they are, unless the tile overlaps itself here).
    bool clash = false;
    for (const auto& e : ears) {
      for (int k = 0; k < 3; ++k) clash |= edge_tri_.contains(EdgeKey(e[k], e[(k + 1) % 3]));
    }
    if (clash) {
      for (const uint32_t t : fan) {
        PlanTriangle back = tris_[t];
        back.alive = true;
        Add(back);
      }
      continue;
    }
    for (size_t i = 0; i < ears.size(); ++i) {
      const auto& e = ears[i];
      Add(PlanTriangle{{e[0], e[1], e[2]}, like.group, like.island, std::move(sources[i])});
    }
    ++removed;
  }
  return removed;
}

}  // namespace waymesh::twin
