#pragma once
// Small single-tile maps assembled directly as TileView arrays, for query unit tests that need
// exact control of the geometry (no loader involved). Adjacency is found by shared vertex
// indices, detail triangles are fans, islands are flood-filled, and the BV tree is a root over
// leaves of consecutive polygons.

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/search_tables.h"

namespace waymesh::testing {

struct HandPolygon {
  std::vector<uint32_t> verts;  // counter-clockwise in (x, z): TriArea2XZ > 0
  uint8_t area = kWalkableArea;
  uint16_t flags = 1;
};

struct HandLink {
  Vec3 start, end;
  uint32_t start_poly, end_poly;
  float cost;
  uint8_t area = kWalkableArea;
};

namespace hand_detail {

struct Storage {
  std::vector<Vec3> vertices;
  std::vector<uint32_t> poly_start, poly_verts, poly_neighbors, poly_island;
  std::vector<uint8_t> poly_area;
  std::vector<uint16_t> poly_flags;
  std::vector<DetailTri> detail;
  std::vector<float> area_prefix;
  std::vector<BvNode> bv;
  std::vector<OffMeshLink> links;
};

inline uint32_t FindRoot(std::vector<uint32_t>& parent, uint32_t i) {
  while (parent[i] != i) i = parent[i] = parent[parent[i]];
  return i;
}

}  // namespace hand_detail

// Builds a one-tile map. Links join islands into groups like the real pipeline does.
inline std::shared_ptr<const NavMap> BuildHandMap(std::vector<Vec3> vertices,
                                                  const std::vector<HandPolygon>& polys,
                                                  const std::vector<HandLink>& links = {}) {
  auto st = std::make_shared<hand_detail::Storage>();
  st->vertices = std::move(vertices);
  st->poly_start.push_back(0);
  std::map<std::pair<uint32_t, uint32_t>, std::pair<uint32_t, uint32_t>> edge_owner;
  for (uint32_t p = 0; p < polys.size(); ++p) {
    const auto& v = polys[p].verts;
    for (uint32_t i = 0; i < v.size(); ++i) {
      st->poly_verts.push_back(v[i]);
      st->poly_neighbors.push_back(kWall);
    }
    for (uint32_t i = 1; i + 1 < v.size(); ++i) {
      st->detail.push_back(DetailTri{0, uint8_t(i), uint8_t(i + 1), 0});
    }
    st->poly_start.push_back(uint32_t(st->poly_verts.size()));
    st->poly_area.push_back(polys[p].area);
    st->poly_flags.push_back(polys[p].flags);
  }
  // Adjacency by shared undirected edges.
  for (uint32_t p = 0; p < polys.size(); ++p) {
    const auto& v = polys[p].verts;
    for (uint32_t i = 0; i < v.size(); ++i) {
      const uint32_t a = v[i], b = v[(i + 1) % v.size()];
      auto key = std::minmax(a, b);
      auto it = edge_owner.find({key.first, key.second});
      if (it == edge_owner.end()) {
        edge_owner[{key.first, key.second}] = {p, st->poly_start[p] + i};
      } else {
        st->poly_neighbors[st->poly_start[p] + i] = it->second.first;
        st->poly_neighbors[it->second.second] = p;
      }
    }
  }
  // Islands by flood fill over edges; groups additionally merge across links.
  std::vector<uint32_t> parent(polys.size());
  for (uint32_t p = 0; p < polys.size(); ++p) parent[p] = p;
  for (uint32_t p = 0; p < polys.size(); ++p) {
    for (uint32_t c = st->poly_start[p]; c < st->poly_start[p + 1]; ++c) {
      if (st->poly_neighbors[c] != kWall) {
        parent[hand_detail::FindRoot(parent, p)] =
            hand_detail::FindRoot(parent, st->poly_neighbors[c]);
      }
    }
  }
  std::map<uint32_t, uint32_t> island_of_root;
  MapInfo info;
  info.name = "hand";
  for (uint32_t p = 0; p < polys.size(); ++p) {
    const uint32_t r = hand_detail::FindRoot(parent, p);
    auto [it, fresh] = island_of_root.emplace(r, uint32_t(island_of_root.size()));
    if (fresh) info.islands.push_back(IslandInfo{0, 0.0, it->second});
    st->poly_island.push_back(it->second);
  }
  std::vector<uint32_t> group(info.islands.size());
  for (uint32_t i = 0; i < group.size(); ++i) group[i] = i;
  for (const HandLink& l : links) {
    group[hand_detail::FindRoot(group, st->poly_island[l.start_poly])] =
        hand_detail::FindRoot(group, st->poly_island[l.end_poly]);
  }
  for (uint32_t i = 0; i < group.size(); ++i) {
    info.islands[i].group = hand_detail::FindRoot(group, i);
  }
  // Area prefix and bounds.
  Aabb bounds;
  for (const Vec3& v : st->vertices) bounds.Extend(v);
  st->area_prefix.push_back(0);
  double sum = 0;
  for (uint32_t p = 0; p < polys.size(); ++p) {
    const auto& v = polys[p].verts;
    double a2 = 0;
    for (uint32_t i = 1; i + 1 < v.size(); ++i) {
      a2 += TriArea2XZ(st->vertices[v[0]], st->vertices[v[i]], st->vertices[v[i + 1]]);
    }
    sum += 0.5 * a2;
    st->area_prefix.push_back(float(sum));
    info.islands[st->poly_island[p]].polygons++;
    info.islands[st->poly_island[p]].area += 0.5 * a2;
  }
  // BV: root covering everything, then leaves of up to kBvMaxLeafSize consecutive polygons.
  const Vec3 ext = bounds.max - bounds.min;
  const float largest = std::max({ext.x, ext.y, ext.z, 1e-3f});
  const float qf = 65000.0f / largest;
  auto q_lo = [&](float v, float o) {
    return uint16_t(std::clamp(std::floor((v - o) * qf), 0.f, 65535.f));
  };
  auto q_hi = [&](float v, float o) {
    return uint16_t(std::clamp(std::ceil((v - o) * qf), 0.f, 65535.f));
  };
  auto box_node = [&](uint32_t first, uint32_t count, uint32_t data) {
    Aabb b;
    for (uint32_t p = first; p < first + count; ++p) {
      for (uint32_t c = st->poly_start[p]; c < st->poly_start[p + 1]; ++c) {
        b.Extend(st->vertices[st->poly_verts[c]]);
      }
    }
    const Vec3 o = bounds.min;
    return BvNode{{q_lo(b.min.x, o.x), q_lo(b.min.y, o.y), q_lo(b.min.z, o.z)},
                  {q_hi(b.max.x, o.x), q_hi(b.max.y, o.y), q_hi(b.max.z, o.z)},
                  data};
  };
  const uint32_t n = uint32_t(polys.size());
  const uint32_t leaves = (n + kBvMaxLeafSize - 1) / kBvMaxLeafSize;
  st->bv.push_back(box_node(0, n, kBvInternalBit | (leaves + 1)));
  for (uint32_t first = 0; first < n; first += kBvMaxLeafSize) {
    const uint32_t count = std::min<uint32_t>(kBvMaxLeafSize, n - first);
    st->bv.push_back(box_node(first, count, ((count - 1) << kBvCountShift) | first));
  }
  // Links, sorted by start polygon.
  for (const HandLink& l : links) {
    st->links.push_back(OffMeshLink{l.start, l.end, 0.1f, l.cost, l.start_poly, 0, l.end_poly,
                                    uint32_t(st->links.size()), l.area, 0, 0});
  }
  std::stable_sort(
      st->links.begin(), st->links.end(),
      [](const OffMeshLink& a, const OffMeshLink& b) { return a.start_poly < b.start_poly; });

  TileView tile;
  tile.index = 0;
  tile.bounds = bounds;
  tile.bv_quant_factor = qf;
  tile.vertices = st->vertices;
  tile.poly_start = st->poly_start;
  tile.poly_verts = st->poly_verts;
  tile.poly_neighbors = st->poly_neighbors;
  tile.poly_area = st->poly_area;
  tile.poly_flags = st->poly_flags;
  tile.poly_island = st->poly_island;
  tile.detail_tris = st->detail;
  tile.area_prefix = st->area_prefix;
  tile.bv_nodes = st->bv;
  tile.off_mesh_links = st->links;
  info.bounds = bounds;
  info.tile_size = std::max(ext.x, ext.z) + 1.0f;
  info.grid_origin = bounds.min;
  info.grid_width = info.grid_height = 1;
  info.polygon_count = n;
  info.vertex_count = st->vertices.size();
  info.off_mesh_link_count = links.size();
  info.walkable_area = sum;
  for (auto& a : info.areas) a.cost = 1.0f;
  info.areas[0].used = true;
  std::vector<TileView> tiles{tile};
  // Search tables as a loader would build them.
  return WithSearchTables(std::make_shared<const NavMap>(std::move(info), std::move(tiles), st));
}

// An nx x nz grid of unit-free square cells of size `cell` at height y, as quads; cells listed
// in `holes` (index z * nx + x) are left out. Vertex (i, k) has index k * (nx + 1) + i.
inline std::pair<std::vector<Vec3>, std::vector<HandPolygon>> GridPolygons(
    int nx, int nz, float cell, float y = 0, const std::vector<int>& holes = {}) {
  std::vector<Vec3> verts;
  for (int k = 0; k <= nz; ++k) {
    for (int i = 0; i <= nx; ++i) verts.push_back({i * cell, y, k * cell});
  }
  std::vector<HandPolygon> polys;
  for (int k = 0; k < nz; ++k) {
    for (int i = 0; i < nx; ++i) {
      if (std::find(holes.begin(), holes.end(), k * nx + i) != holes.end()) continue;
      const uint32_t a = k * (nx + 1) + i;
      polys.push_back(HandPolygon{{a, a + 1, a + 1 + (nx + 1), a + (nx + 1)}});
    }
  }
  return {verts, polys};
}

}  // namespace waymesh::testing
