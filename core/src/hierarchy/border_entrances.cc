#include "hierarchy/border_entrances.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace waymesh::internal {
namespace {

// Cluster pair, the connected part of each cluster the edge's polygons are in, and the square
// of the border the edge's midpoint lies in: std::map keeps the groups, and so the entrance
// order, the same on every run. Keying by part makes every entrance's anchor reachable inside
// its cluster from every edge it stands for.
using GroupKey = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t, int64_t, int64_t>;

}  // namespace

std::vector<uint32_t> ClusterParts(const NavMap& map, const QueryFilter& filter,
                                   const std::vector<uint32_t>& cluster_of,
                                   const std::vector<uint32_t>& bases) {
  constexpr uint32_t kNone = 0xFFFFFFFFu;
  std::vector<uint32_t> part(bases.back(), kNone);
  std::vector<PolyIndex> stack;
  uint32_t next = 0;
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      if (part[bases[t.index] + p] != kNone) continue;
      part[bases[t.index] + p] = next;
      stack.assign(1, PolyIndex{t.index, p});
      while (!stack.empty()) {
        const PolyIndex q = stack.back();
        stack.pop_back();
        const TileView& u = map.tile(q.tile);
        if (!filter.Passes(u.poly_area[q.poly], u.poly_flags[q.poly])) continue;
        for (uint32_t i = u.poly_start[q.poly]; i < u.poly_start[q.poly + 1]; ++i) {
          const std::optional<PolyIndex> nb = u.across(i);
          if (!nb || cluster_of[nb->tile] != cluster_of[t.index]) continue;
          uint32_t& label = part[bases[nb->tile] + nb->poly];
          const TileView& v = map.tile(nb->tile);
          if (label != kNone || !filter.Passes(v.poly_area[nb->poly], v.poly_flags[nb->poly])) {
            continue;
          }
          label = next;
          stack.push_back(*nb);
        }
      }
      ++next;
    }
  }
  return part;
}

namespace {

// The portal edges of one group, as anchors on both sides, and their end points (two each).
struct EdgeGroup {
  std::vector<BorderEntrance> edges;
  std::vector<Vec3> ends;
};

// The anchor of the edges of group `g` whose chain label is `chain`: the edge midpoint nearest
// their mean (a path through the opening crosses it near there).
BorderEntrance ChainAnchor(const EdgeGroup& g, const std::vector<uint32_t>& label, uint32_t chain) {
  Vec3 sum{0, 0, 0};
  float count = 0;
  for (size_t k = 0; k < g.edges.size(); ++k) {
    if (label[k] != chain) continue;
    sum = sum + g.edges[k].side[0].pos;
    ++count;
  }
  const Vec3 mean = sum * (1.0f / count);
  const BorderEntrance* best = nullptr;
  for (size_t k = 0; k < g.edges.size(); ++k) {
    if (label[k] != chain) continue;
    const BorderEntrance& e = g.edges[k];
    if (best == nullptr || Distance(e.side[0].pos, mean) < Distance(best->side[0].pos, mean)) {
      best = &e;
    }
  }
  return *best;
}

// Per edge of `g`, the smallest index of an edge of its chain (edges joined through shared
// end points): a group's square may cut across several separate openings.
std::vector<uint32_t> ChainLabels(const EdgeGroup& g) {
  const size_t n = g.edges.size();
  std::vector<uint32_t> label(n);
  for (size_t k = 0; k < n; ++k) label[k] = uint32_t(k);
  const auto touch = [&](size_t a, size_t b) {
    for (int i = 0; i < 2; ++i) {
      for (int j = 0; j < 2; ++j) {
        if (g.ends[2 * a + i] == g.ends[2 * b + j]) return true;
      }
    }
    return false;
  };
  // Groups hold a few dozen edges: relabel until stable.
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t a = 0; a < n; ++a) {
      for (size_t b = a + 1; b < n; ++b) {
        if (label[a] != label[b] && touch(a, b)) {
          label[a] = label[b] = std::min(label[a], label[b]);
          changed = true;
        }
      }
    }
  }
  return label;
}

}  // namespace

std::vector<BorderEntrance> FindBorderEntrances(const NavMap& map, const QueryFilter& filter,
                                                const std::vector<uint32_t>& cluster_of,
                                                const std::vector<uint32_t>& part, float span) {
  const std::vector<uint32_t> bases = map.PolygonBases();
  std::map<GroupKey, EdgeGroup> groups;
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      if (!filter.Passes(t.poly_area[p], t.poly_flags[p])) continue;
      const uint32_t n = t.corner_count(p);
      for (uint32_t i = 0; i < n; ++i) {
        const std::optional<PolyIndex> nb = t.across(t.poly_start[p] + i);
        if (!nb) continue;
        // Each shared edge once: from the polygon in the lower cluster.
        const uint32_t here = cluster_of[t.index], there = cluster_of[nb->tile];
        if (there <= here) continue;
        const TileView& u = map.tile(nb->tile);
        if (!filter.Passes(u.poly_area[nb->poly], u.poly_flags[nb->poly])) continue;
        const Vec3 mid = (t.corner(p, i) + t.corner(p, (i + 1) % n)) * 0.5f;
        const GroupKey key{here,
                           there,
                           part[bases[t.index] + p],
                           part[bases[nb->tile] + nb->poly],
                           int64_t(std::floor(mid.x / span)),
                           int64_t(std::floor(mid.z / span))};
        EdgeGroup& g = groups[key];
        g.edges.push_back(
            {{SurfacePoint{map.Ref({t.index, p}), mid}, SurfacePoint{map.Ref(*nb), mid}}});
        g.ends.push_back(t.corner(p, i));
        g.ends.push_back(t.corner(p, (i + 1) % n));
      }
    }
  }
  std::vector<BorderEntrance> out;
  out.reserve(groups.size());
  for (const auto& [key, g] : groups) {
    const std::vector<uint32_t> label = ChainLabels(g);
    for (uint32_t k = 0; k < label.size(); ++k) {
      if (label[k] == k) out.push_back(ChainAnchor(g, label, k));
    }
  }
  return out;
}

}  // namespace waymesh::internal
