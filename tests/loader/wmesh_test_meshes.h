#pragma once
// RepairedMesh values built by hand for the `.wmesh` tests: a small multi-tile map with
// cross-tile edges, off-mesh links and two islands, and a triangulated grid of any size.

#include <cmath>
#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/mesh/repaired_mesh.h"

namespace waymesh::testing {

// 3D surface area of polygon p of `mesh`, from its detail triangles (m²).
inline double SurfaceArea(const RepairedMesh& mesh, uint32_t p) {
  double area = 0;
  const uint32_t first = mesh.poly_start[p];
  for (uint32_t t = first - 2 * p; t < mesh.poly_start[p + 1] - 2 * p - 2; ++t) {
    const DetailTri& d = mesh.detail_tris[t];
    const Vec3 a = mesh.vertices[mesh.poly_verts[first + d.a]];
    const Vec3 b = mesh.vertices[mesh.poly_verts[first + d.b]];
    const Vec3 c = mesh.vertices[mesh.poly_verts[first + d.c]];
    area += 0.5 * double(Length(Cross(b - a, c - a)));
  }
  return area;
}

// Appends polygon `verts` (map winding) with a fan of detail triangles.
inline void AddPolygon(RepairedMesh* m, std::vector<uint32_t> verts, uint32_t tile, uint32_t island,
                       uint8_t area = kWalkableArea, uint16_t flags = 1) {
  for (uint8_t i = 1; i + 1 < verts.size(); ++i)
    m->detail_tris.push_back({0, i, uint8_t(i + 1), 0});
  m->poly_verts.insert(m->poly_verts.end(), verts.begin(), verts.end());
  m->poly_start.push_back(uint32_t(m->poly_verts.size()));
  m->poly_neighbors.resize(m->poly_verts.size(), -1);
  m->poly_area.push_back(area);
  m->poly_flags.push_back(flags);
  m->poly_tile.push_back(tile);
  m->poly_island.push_back(island);
}

// Fills poly_neighbors from shared edges (each undirected edge used by at most two polygons).
inline void ConnectPolygons(RepairedMesh* m) {
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint32_t>> edges;  // -> corners
  std::vector<uint32_t> owner(m->poly_verts.size());
  for (uint32_t p = 0; p < m->polygon_count(); ++p) {
    const uint32_t b = m->poly_start[p], n = m->corner_count(p);
    for (uint32_t i = 0; i < n; ++i) {
      uint32_t u = m->poly_verts[b + i], v = m->poly_verts[b + (i + 1) % n];
      edges[{std::min(u, v), std::max(u, v)}].push_back(b + i);
      owner[b + i] = p;
    }
  }
  for (const auto& [key, corners] : edges) {
    if (corners.size() == 2) {
      m->poly_neighbors[corners[0]] = owner[corners[1]];
      m->poly_neighbors[corners[1]] = owner[corners[0]];
    }
  }
}

// Metadata shared by the test meshes; grid, bounds and areas filled from the geometry.
inline void FillInfo(RepairedMesh* m, float tile_size, uint32_t grid_w, uint32_t grid_h) {
  MapInfo& info = m->info;
  info.name = "test map";
  info.source_hash = "sha256:0123456789abcdef";
  info.build_tool_version = "waymesh test";
  info.agent = {0.4f, 1.8f, 40.0f, 0.3f, 0.125f};
  info.areas[0] = {"Walkable", 1.0f, true};
  info.areas[2] = {"Jump", 2.0f, true};
  info.areas[3] = {"Water", 5.5f, true};
  info.areas[63] = {"", 1.0f, false};
  info.tile_size = tile_size;
  info.grid_origin = {0, 0, 0};
  info.grid_width = grid_w;
  info.grid_height = grid_h;
  info.max_tile_overhang = 0.25f;
  info.bounds = Aabb();
  for (const Vec3& v : m->vertices) info.bounds.Extend(v);
  info.vertex_count = m->vertices.size();
  info.polygon_count = m->polygon_count();
  info.off_mesh_link_count = m->links.size();
  info.walkable_area = 0;
  for (IslandInfo& island : info.islands) island = {0, 0.0, island.group};
  for (uint32_t p = 0; p < m->polygon_count(); ++p) {
    const double a = SurfaceArea(*m, p);
    info.walkable_area += a;
    info.islands[m->poly_island[p]].polygons++;
    info.islands[m->poly_island[p]].area += a;
  }
  info.repairs = {11, 2, 1, 3};
}

// Seven polygons (triangles, quads, a pentagon) in three tiles of a 2 x 2 grid of 10 m tiles;
// cell (1, 1) is empty. Island 0 spans tiles (0,0) and (1,0) through a cross-tile edge; island 1
// is in tile (0,1). A bidirectional link joins polygons 0 and 5, a one-way link goes 4 -> 6.
inline RepairedMesh HandMadeMesh() {
  RepairedMesh m;
  auto v = [&m](float x, float z) {
    m.vertices.push_back({x, 0.1f * x + 0.05f * z, z});
    return uint32_t(m.vertices.size() - 1);
  };
  const uint32_t a = v(1, 2), b = v(5, 2), c = v(10, 2), d = v(15, 2), e = v(19, 2);
  const uint32_t f = v(1, 8), g = v(5, 8), h = v(10, 8), i = v(15, 8), j = v(19, 8);
  const uint32_t k = v(19.5f, 5);
  const uint32_t p = v(2, 12), q = v(8, 12), r = v(5, 18), s = v(9, 18);
  constexpr uint32_t kCell00 = 0, kCell10 = 1, kCell01 = 2;
  AddPolygon(&m, {a, b, g, f}, kCell00, 0);                         // 0: quad
  AddPolygon(&m, {b, c, g}, kCell00, 0, 3, 0x5);                    // 1: water
  AddPolygon(&m, {c, h, g}, kCell00, 0);                            // 2: edge c-h crosses to 3
  AddPolygon(&m, {c, d, i, h}, kCell10, 0, kWalkableArea, 0x8000);  // 3
  AddPolygon(&m, {d, e, k, j, i}, kCell10, 0);                      // 4: pentagon
  AddPolygon(&m, {p, q, r}, kCell01, 1, 2);                         // 5
  AddPolygon(&m, {q, s, r}, kCell01, 1);                            // 6
  ConnectPolygons(&m);
  m.links.push_back({{3, 0.5f, 5}, {4, 1.0f, 14}, 0.5f, 9.0f, 0, 5, 7, 2, true});
  m.links.push_back({{17, 2.0f, 5}, {7, 2.0f, 16}, 0.3f, 12.5f, 4, 6, 9, 0, false});
  m.info.islands = {{0, 0, 0}, {0, 0, 0}};  // joined by links: one group
  FillInfo(&m, 10.0f, 2, 2);
  return m;
}

// A grid of cells_x x cells_z square cells of `cell` metres, two triangles each, on a gentle
// slope, cut into tiles of `tile_size` metres by triangle centroid. One island.
inline RepairedMesh GridMesh(int cells_x, int cells_z, float cell, float tile_size) {
  RepairedMesh m;
  for (int z = 0; z <= cells_z; ++z) {
    for (int x = 0; x <= cells_x; ++x) {
      const float fx = x * cell, fz = z * cell;
      m.vertices.push_back({fx, 0.05f * fx + 0.5f * std::sin(0.3f * fz), fz});
    }
  }
  const uint32_t grid_w = uint32_t(std::ceil(cells_x * cell / tile_size));
  const uint32_t grid_h = uint32_t(std::ceil(cells_z * cell / tile_size));
  auto tile_of = [&](float cx, float cz) {
    return uint32_t(cz / tile_size) * grid_w + uint32_t(cx / tile_size);
  };
  for (int z = 0; z < cells_z; ++z) {
    for (int x = 0; x < cells_x; ++x) {
      const uint32_t v00 = z * (cells_x + 1) + x, v10 = v00 + 1;
      const uint32_t v01 = v00 + cells_x + 1, v11 = v01 + 1;
      AddPolygon(&m, {v00, v10, v11}, tile_of((x + 0.67f) * cell, (z + 0.33f) * cell), 0);
      AddPolygon(&m, {v00, v11, v01}, tile_of((x + 0.33f) * cell, (z + 0.67f) * cell), 0);
    }
  }
  ConnectPolygons(&m);
  m.info.islands = {{0, 0, 0}};
  FillInfo(&m, tile_size, grid_w, grid_h);
  return m;
}

}  // namespace waymesh::testing
