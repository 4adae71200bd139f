// Repair pipeline: merging triangles into convex polygons, and tiles.

#include <cmath>

#include "gtest/gtest.h"
#include "repair_test_meshes.h"
#include "support/mesh_invariants.h"
#include "waymesh/repair/repair.h"

namespace waymesh::testing {
namespace {

double TotalPlanArea(const RepairedMesh& m) {
  double sum = 0;
  for (uint32_t p = 0; p < m.polygon_count(); ++p) sum += PolygonPlanArea(m, p);
  return sum;
}

class RepairMergeMaxVerts : public ::testing::TestWithParam<int> {};

TEST_P(RepairMergeMaxVerts, ConvexPolygonsWithinTheLimitConserveArea) {
  const SourceMesh grid =
      GridSoup(9, 7, 1.0f, 0, 0, [](float x, float z) { return 0.001f * x + 0.0005f * z; });
  RepairOptions o;
  o.max_verts_per_poly = GetParam();
  RepairReport report;
  auto mesh = Repair(grid, o, &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_TRUE(MeshInvariantsHold(*mesh, {.max_verts_per_poly = GetParam()}));
  for (uint32_t p = 0; p < mesh->polygon_count(); ++p) {
    EXPECT_LE(mesh->corner_count(p), uint32_t(GetParam()));
  }
  EXPECT_NEAR(TotalPlanArea(*mesh), 63.0, 63.0 * 1e-6);
  EXPECT_NEAR(mesh->info.walkable_area, SourceSurfaceArea(grid), SourceSurfaceArea(grid) * 1e-6);
  EXPECT_EQ(report.triangles, 126);
  EXPECT_EQ(mesh->detail_tris.size(), 126);
  if (GetParam() == 3) {
    EXPECT_EQ(mesh->polygon_count(), 126);
  } else {
    EXPECT_LT(mesh->polygon_count(), 126 * 2 / 3);
  }
  EXPECT_EQ(mesh->info.islands.size(), 1);
}

INSTANTIATE_TEST_SUITE_P(Limits, RepairMergeMaxVerts, ::testing::Values(3, 4, 6, 8, 12, 64));

TEST(RepairMerge, NeverMergesAcrossACreaseSteeperThanTheHeightTolerance) {
  // A roof: two planes meeting at x = 4 (10 % slope each side).
  auto roof = [](float x, float) { return 0.1f * std::fabs(x - 4); };
  const SourceMesh grid = GridSoup(8, 4, 1.0f, 0, 0, roof);
  auto crossing = [](const RepairedMesh& m) {
    int n = 0;
    for (uint32_t p = 0; p < m.polygon_count(); ++p) {
      bool left = false, right = false;
      for (uint32_t i = 0; i < m.corner_count(p); ++i) {
        left |= CornerOf(m, p, i).x < 3.99f;
        right |= CornerOf(m, p, i).x > 4.01f;
      }
      n += left && right;
    }
    return n;
  };
  auto strict = Repair(grid);
  ASSERT_TRUE(strict.ok()) << strict.status();
  EXPECT_EQ(crossing(*strict), 0);
  EXPECT_TRUE(MeshInvariantsHold(*strict));
  RepairOptions loose;
  loose.merge_height_tolerance = 1.0f;
  auto merged = Repair(grid, loose);
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_GT(crossing(*merged), 0);  // the check above can fail
}

TEST(RepairMerge, DifferentAreasNeverMerge) {
  SourceMesh grid = GridSoup(4, 4, 1.0f);
  for (uint32_t p = 0; p < grid.polygon_count(); ++p) grid.poly_area[p] = p < 16 ? 0 : 3;
  auto mesh = Repair(grid);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  for (uint32_t p = 0; p < mesh->polygon_count(); ++p) {
    float z_mid = 0;
    for (uint32_t i = 0; i < mesh->corner_count(p); ++i) z_mid += CornerOf(*mesh, p, i).z;
    z_mid /= float(mesh->corner_count(p));
    EXPECT_EQ(mesh->poly_area[p], z_mid < 2 ? 0 : 3);
  }
  EXPECT_TRUE(mesh->info.areas[3].used);
  EXPECT_FALSE(mesh->info.areas[2].used);
  EXPECT_TRUE(MeshInvariantsHold(*mesh));
}

TEST(RepairTiles, PolygonsNeverSpanTilesAndGridCoversTheBounds) {
  const SourceMesh grid = GridSoup(10, 10, 1.0f, 100, -50);
  RepairOptions o;
  o.tile_size = 2.5f;
  auto mesh = Repair(grid, o);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  const MapInfo& info = mesh->info;
  EXPECT_EQ(info.grid_width, 4);
  EXPECT_EQ(info.grid_height, 4);
  EXPECT_FLOAT_EQ(info.grid_origin.x, 100);
  EXPECT_FLOAT_EQ(info.grid_origin.z, -50);
  EXPECT_FLOAT_EQ(info.tile_size, 2.5f);
  // Every detail triangle's centroid lies in its polygon's tile: merging never crossed tiles.
  for (uint32_t p = 0; p < mesh->polygon_count(); ++p) {
    for (uint32_t t = 0; t + 2 < mesh->corner_count(p); ++t) {
      const DetailTri& d = mesh->detail_tris[mesh->poly_start[p] - 2 * p + t];
      const Vec3 c = (CornerOf(*mesh, p, d.a) + CornerOf(*mesh, p, d.b) + CornerOf(*mesh, p, d.c)) *
                     (1.0f / 3);
      const uint32_t gx = uint32_t((c.x - info.grid_origin.x) / info.tile_size);
      const uint32_t gz = uint32_t((c.z - info.grid_origin.z) / info.tile_size);
      EXPECT_EQ(mesh->poly_tile[p], gz * info.grid_width + gx) << "polygon " << p;
    }
  }
  // Quads straddle the lines at 2.5, 5 and 7.5, so some triangles reach over.
  EXPECT_GT(info.max_tile_overhang, 0.0f);
  EXPECT_LT(info.max_tile_overhang, 1.0f);
  EXPECT_TRUE(MeshInvariantsHold(*mesh));
}

TEST(RepairTiles, TooManyTilesIsAnError) {
  RepairOptions o;
  o.tile_size = 0.001f;
  auto mesh = Repair(GridSoup(10, 10, 1.0f), o);
  ASSERT_FALSE(mesh.ok());
  EXPECT_NE(mesh.status().message().find("tile"), std::string::npos) << mesh.status();
}

}  // namespace
}  // namespace waymesh::testing
