#pragma once
// Round-trip assertions for `.wmesh` tests: compile a RepairedMesh, load it, and compare every
// polygon (through the global -> (tile, local) placement), link and metadata field.

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "support/defect_maps.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_tiles.h"
#include "wmesh_test_meshes.h"

namespace waymesh::testing {

struct Compiled {
  std::shared_ptr<const std::string> bytes;
  std::vector<PolyIndex> placement;
};

// The bytes and placement of `mesh` compiled (empty bytes, and a test failure, when it fails).
inline Compiled CompileForRoundTrip(const RepairedMesh& mesh) {
  Compiled c;
  c.bytes = std::make_shared<const std::string>(CompileOrDie(mesh, &c.placement));
  return c;
}

inline std::shared_ptr<const NavMap> LoadOrDie(const Compiled& c) {
  absl::StatusOr<std::shared_ptr<const NavMap>> map = LoadMap(c.bytes);
  EXPECT_TRUE(map.ok()) << map.status();
  return map.ok() ? *map : nullptr;
}

// The polygon across corner edge `corner` of `p`, resolved through cross links; nullopt for
// walls.
inline std::optional<PolyIndex> Across(const NavMap& map, PolyIndex p, uint32_t corner) {
  const TileView& t = map.tile(p.tile);
  return t.across(t.poly_start[p.poly] + corner);
}

inline void ExpectInfoEq(const MapInfo& a, const MapInfo& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.source_hash, b.source_hash);
  EXPECT_EQ(a.build_tool_version, b.build_tool_version);
  EXPECT_EQ(a.agent.radius, b.agent.radius);
  EXPECT_EQ(a.agent.height, b.agent.height);
  EXPECT_EQ(a.agent.max_slope_deg, b.agent.max_slope_deg);
  EXPECT_EQ(a.agent.step_height, b.agent.step_height);
  EXPECT_EQ(a.agent.voxel_size, b.agent.voxel_size);
  for (int i = 0; i < kMaxAreas; ++i) {
    EXPECT_EQ(a.areas[i].name, b.areas[i].name) << "area " << i;
    EXPECT_EQ(a.areas[i].cost, b.areas[i].cost) << "area " << i;
    EXPECT_EQ(a.areas[i].used, b.areas[i].used) << "area " << i;
  }
  EXPECT_EQ(a.bounds.min, b.bounds.min);
  EXPECT_EQ(a.bounds.max, b.bounds.max);
  EXPECT_EQ(a.tile_size, b.tile_size);
  EXPECT_EQ(a.grid_origin, b.grid_origin);
  EXPECT_EQ(a.grid_width, b.grid_width);
  EXPECT_EQ(a.grid_height, b.grid_height);
  EXPECT_EQ(a.max_tile_overhang, b.max_tile_overhang);
  EXPECT_EQ(a.vertex_count, b.vertex_count);
  EXPECT_EQ(a.polygon_count, b.polygon_count);
  EXPECT_EQ(a.off_mesh_link_count, b.off_mesh_link_count);
  EXPECT_EQ(a.walkable_area, b.walkable_area);
  ASSERT_EQ(a.islands.size(), b.islands.size());
  for (size_t i = 0; i < a.islands.size(); ++i) {
    EXPECT_EQ(a.islands[i].polygons, b.islands[i].polygons) << "island " << i;
    EXPECT_EQ(a.islands[i].area, b.islands[i].area) << "island " << i;
    EXPECT_EQ(a.islands[i].group, b.islands[i].group) << "island " << i;
  }
  EXPECT_EQ(a.repairs.welded, b.repairs.welded);
  EXPECT_EQ(a.repairs.t_junctions, b.repairs.t_junctions);
  EXPECT_EQ(a.repairs.non_manifold, b.repairs.non_manifold);
  EXPECT_EQ(a.repairs.degenerate, b.repairs.degenerate);
}

// Every polygon of `mesh`, found through `placement`, has the same corners, attributes,
// neighbours, detail triangles and surface area in `map`.
inline void ExpectPolygonsEq(const RepairedMesh& mesh, const std::vector<PolyIndex>& placement,
                             const NavMap& map) {
  ASSERT_EQ(placement.size(), mesh.polygon_count());
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    SCOPED_TRACE(::testing::Message() << "polygon " << p);
    const PolyIndex at = placement[p];
    ASSERT_LT(at.tile, map.tile_count());
    const TileView& t = map.tile(at.tile);
    ASSERT_LT(at.poly, t.poly_count());
    const uint32_t k = at.poly, n = mesh.corner_count(p);
    EXPECT_EQ(t.grid_z * map.info().grid_width + t.grid_x, mesh.poly_tile[p]);
    ASSERT_EQ(t.corner_count(k), n);
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_EQ(t.corner(k, i), mesh.vertices[mesh.poly_verts[mesh.poly_start[p] + i]]);
      const int64_t nb = mesh.poly_neighbors[mesh.poly_start[p] + i];
      EXPECT_EQ(Across(map, at, i), nb < 0 ? std::nullopt : std::optional(placement[nb]))
          << "corner " << i;
    }
    EXPECT_EQ(t.poly_area[k], mesh.poly_area[p]);
    EXPECT_EQ(t.poly_flags[k], mesh.poly_flags[p]);
    EXPECT_EQ(t.poly_island[k], mesh.poly_island[p]);
    const std::span<const DetailTri> detail = t.detail(k);
    ASSERT_EQ(detail.size(), n - 2);
    for (uint32_t d = 0; d < n - 2; ++d) {
      const DetailTri& want = mesh.detail_tris[mesh.poly_start[p] - 2 * p + d];
      EXPECT_EQ(detail[d].a, want.a);
      EXPECT_EQ(detail[d].b, want.b);
      EXPECT_EQ(detail[d].c, want.c);
    }
    const double area = double(t.area_prefix[k + 1]) - t.area_prefix[k];
    EXPECT_NEAR(area, SurfaceArea(mesh, p), 1e-4 * (1 + t.area_prefix.back()));
  }
}

// Every source link appears once per direction, in the tile of its start polygon, with the
// right ends; no other links exist.
inline void ExpectLinksEq(const RepairedMesh& mesh, const std::vector<PolyIndex>& placement,
                          const NavMap& map) {
  size_t stored = 0;
  for (const TileView& t : map.tiles()) {
    stored += t.off_mesh_links.size();
    for (size_t i = 1; i < t.off_mesh_links.size(); ++i) {
      EXPECT_LE(t.off_mesh_links[i - 1].start_poly, t.off_mesh_links[i].start_poly);
    }
  }
  size_t expected = 0;
  for (const ResolvedOffMeshLink& l : mesh.links) {
    for (int reverse = 0; reverse <= int(l.bidirectional); ++reverse) {
      ++expected;
      const PolyIndex from = placement[reverse ? l.end_poly : l.start_poly];
      const PolyIndex to = placement[reverse ? l.start_poly : l.end_poly];
      const OffMeshLink* found = nullptr;
      for (const OffMeshLink& k : map.tile(from.tile).off_mesh_links) {
        if (k.id == l.id && k.start_poly == from.poly) found = &k;
      }
      ASSERT_NE(found, nullptr) << "link " << l.id << " reverse " << reverse;
      EXPECT_EQ(found->end_tile, to.tile);
      EXPECT_EQ(found->end_poly, to.poly);
      EXPECT_EQ(found->start, reverse ? l.end : l.start);
      EXPECT_EQ(found->end, reverse ? l.start : l.end);
      EXPECT_EQ(found->radius, l.radius);
      EXPECT_EQ(found->cost, l.cost);
      EXPECT_EQ(found->area, l.area);
      EXPECT_EQ(found->bidirectional, l.bidirectional ? 1 : 0);
    }
  }
  EXPECT_EQ(stored, expected);
}

}  // namespace waymesh::testing
