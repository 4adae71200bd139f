#include "exact/landmark_row_relax.h"

#include <array>
#include <bit>
#include <cmath>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"

namespace waymesh::internal::exact {
namespace {

// A vertex of the map: tile and index in it.
struct MapVertex {
  uint32_t tile = 0, vertex = 0;
};

// Per tile, the polygons each vertex is a corner of (CSR: vertex v's in [start[v], start[v+1])).
struct CornerPolygons {
  std::vector<uint32_t> start, polys;
};

CornerPolygons PolygonsOfVertices(const TileView& t) {
  CornerPolygons out;
  out.start.assign(t.vertices.size() + 1, 0);
  for (const uint32_t v : t.poly_verts) ++out.start[v + 1];
  for (size_t v = 1; v < out.start.size(); ++v) out.start[v] += out.start[v - 1];
  out.polys.resize(t.poly_verts.size());
  std::vector<uint32_t> fill(out.start.begin(), out.start.end() - 1);
  for (uint32_t p = 0; p < t.poly_count(); ++p) {
    for (uint32_t c = t.poly_start[p]; c < t.poly_start[p + 1]; ++c) {
      out.polys[fill[t.poly_verts[c]]++] = p;
    }
  }
  return out;
}

// Per tile and vertex, the other copies of its position in other tiles (seam twins); a
// position's bits are the key, with -0 read as +0.
std::vector<std::vector<std::vector<MapVertex>>> SeamTwins(const NavMap& map) {
  using Key = std::array<uint32_t, 3>;
  const auto key = [](Vec3 v) {
    return Key{std::bit_cast<uint32_t>(v.x + 0.0f), std::bit_cast<uint32_t>(v.y + 0.0f),
               std::bit_cast<uint32_t>(v.z + 0.0f)};
  };
  absl::flat_hash_map<Key, std::vector<MapVertex>> at;
  for (const TileView& t : map.tiles()) {
    for (uint32_t v = 0; v < t.vertices.size(); ++v) at[key(t.vertices[v])].push_back({t.index, v});
  }
  std::vector<std::vector<std::vector<MapVertex>>> twins(map.tile_count());
  for (const TileView& t : map.tiles()) twins[t.index].resize(t.vertices.size());
  for (const auto& [k, copies] : at) {
    if (copies.size() < 2) continue;
    for (const MapVertex& c : copies) {
      for (const MapVertex& o : copies) {
        if (o.tile != c.tile || o.vertex != c.vertex) twins[c.tile][c.vertex].push_back(o);
      }
    }
  }
  return twins;
}

}  // namespace

void RelaxThroughPolygons(const NavMap& map, VertexDistances* d) {
  std::vector<CornerPolygons> polys_of;
  polys_of.reserve(map.tile_count());
  for (const TileView& t : map.tiles()) polys_of.push_back(PolygonsOfVertices(t));
  const auto twins = SeamTwins(map);
  using Item = std::pair<double, std::pair<uint32_t, uint32_t>>;  // distance, (tile, vertex)
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  for (uint32_t t = 0; t < d->size(); ++t) {
    for (uint32_t v = 0; v < (*d)[t].size(); ++v) {
      if (std::isfinite((*d)[t][v])) open.push({(*d)[t][v], {t, v}});
    }
  }
  // Unreached vertices stay unknown: a corner shared with another island (a pinch, which no
  // interval crosses) must not pass a distance over.
  const auto lower = [&](uint32_t tile, uint32_t v, double value) {
    if (std::isfinite((*d)[tile][v]) && value < (*d)[tile][v]) {
      (*d)[tile][v] = value;
      open.push({value, {tile, v}});
    }
  };
  while (!open.empty()) {
    const auto [dist, at] = open.top();
    open.pop();
    const auto [tile, v] = at;
    if (dist > (*d)[tile][v]) continue;  // lowered since it was queued
    const TileView& t = map.tile(tile);
    const CornerPolygons& cp = polys_of[tile];
    const Point2 from = ToPoint2(t.vertices[v]);
    for (uint32_t i = cp.start[v]; i < cp.start[v + 1]; ++i) {
      const uint32_t p = cp.polys[i];
      for (uint32_t c = t.poly_start[p]; c < t.poly_start[p + 1]; ++c) {
        const uint32_t w = t.poly_verts[c];
        lower(tile, w, dist + Dist(from, ToPoint2(t.vertices[w])));
      }
    }
    for (const MapVertex& twin : twins[tile][v]) lower(twin.tile, twin.vertex, dist);
  }
}

}  // namespace waymesh::internal::exact
