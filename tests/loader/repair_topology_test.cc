// Repair pipeline: T-junctions, non-manifold edges and keeping source polygons (merge = false).

#include "gtest/gtest.h"
#include "repair_test_meshes.h"
#include "support/mesh_invariants.h"
#include "waymesh/repair/repair.h"

namespace waymesh::testing {
namespace {

// One big triangle below the seam z = 0 (0..2 in x), two small ones above it meeting at x = 1
// (+ a third filling the top), so (1, y, offset) is a T-junction on the big one's edge.
SourceMesh TJunctionMesh(float offset) {
  const Vec3 t{1, 0, offset};
  return TriangleSoupMesh({{Vec3{0, 0, 0}, Vec3{1, 0, -1}, Vec3{2, 0, 0}},
                           {Vec3{0, 0, 0}, t, Vec3{0, 0, 1}},
                           {t, Vec3{2, 0, 0}, Vec3{2, 0, 1}},
                           {t, Vec3{2, 0, 1}, Vec3{0, 0, 1}}});
}

TEST(RepairTJunction, SplitsTheLongEdgeAndPairsBothHalves) {
  for (float offset : {0.0f, 0.005f, -0.005f}) {
    RepairReport report;
    auto mesh = Repair(TJunctionMesh(offset), NoMerge(), &report);
    ASSERT_TRUE(mesh.ok()) << mesh.status();
    EXPECT_EQ(report.counts.t_junctions, 1) << offset;
    EXPECT_EQ(report.triangles, 5) << offset;
    ASSERT_EQ(mesh->polygon_count(), 4);
    // The big triangle comes back as its source polygon, now with the T vertex as a corner,
    // and borders both small triangles.
    EXPECT_EQ(mesh->corner_count(0), 4);
    std::vector<int64_t> n = NeighboursOf(*mesh, 0);
    std::sort(n.begin(), n.end());
    EXPECT_EQ(n, (std::vector<int64_t>{1, 2})) << offset;
    EXPECT_EQ(WallEdges(*mesh), 5) << offset;
    EXPECT_TRUE(MeshInvariantsHold(*mesh, {.require_convex = offset >= 0}));
  }
}

TEST(RepairTJunction, MergedPolygonsKeepTheTVertexAsACorner) {
  RepairReport report;
  auto mesh = Repair(TJunctionMesh(0), {}, &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(report.counts.t_junctions, 1);
  EXPECT_TRUE(MeshInvariantsHold(*mesh));
  int seam_walls = 0;
  for (uint32_t p = 0; p < mesh->polygon_count(); ++p) {
    for (uint32_t i = 0; i < mesh->corner_count(p); ++i) {
      const Vec3 a = CornerOf(*mesh, p, i), b = CornerOf(*mesh, p, (i + 1) % mesh->corner_count(p));
      if (a.z == 0 && b.z == 0 && mesh->poly_neighbors[mesh->poly_start[p] + i] < 0) ++seam_walls;
    }
  }
  EXPECT_EQ(seam_walls, 0);
}

TEST(RepairTJunction, VertexFartherThanToleranceDoesNotSplit) {
  RepairReport report;
  auto mesh = Repair(TJunctionMesh(0.02f), NoMerge(), &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(report.counts.t_junctions, 0);
  EXPECT_EQ(mesh->corner_count(0), 3);
  EXPECT_TRUE(NeighboursOf(*mesh, 0).empty());
}

TEST(RepairTJunction, StaggeredSeamsSplitBothSides) {
  // Seam vertices at x = 0, 2, 4 below and 0, 1, 3, 4 above: every interior seam vertex
  // splits an edge of the other side.
  std::vector<Triangle> tris;
  const float below[] = {0, 2, 4}, above[] = {0, 1, 3, 4};
  for (int i = 0; i < 2; ++i) {
    tris.push_back({Vec3{below[i], 0, 0}, Vec3{below[i + 1], 0, 0}, Vec3{below[i] + 1, 0, -1}});
  }
  for (int i = 0; i < 3; ++i) {
    tris.push_back({Vec3{above[i], 0, 0}, Vec3{above[i + 1], 0, 0}, Vec3{above[i], 0, 1}});
  }
  RepairReport report;
  auto mesh = Repair(TriangleSoupMesh(tris), TrianglesOnly(), &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(report.counts.t_junctions, 3);  // 1 and 3 split below, 2 splits above
  int seam_walls = 0;
  for (uint32_t p = 0; p < mesh->polygon_count(); ++p) {
    for (uint32_t i = 0; i < 3; ++i) {
      if (CornerOf(*mesh, p, i).z == 0 && CornerOf(*mesh, p, (i + 1) % 3).z == 0 &&
          mesh->poly_neighbors[mesh->poly_start[p] + i] < 0) {
        ++seam_walls;
      }
    }
  }
  EXPECT_EQ(seam_walls, 0);
  EXPECT_TRUE(MeshInvariantsHold(*mesh));
}

TEST(RepairNonManifold, FinOfThreeTrianglesPairsTwoAndReportsOne) {
  const Vec3 a{0, 0, 0}, b{1, 0, 0};
  const SourceMesh fin = TriangleSoupMesh({
      {a, b, Vec3{0.5f, 0, -1}},       // floor below the edge
      {b, a, Vec3{0.5f, 0, 1}},        // floor above the edge: continues the surface
      {b, a, Vec3{0.5f, 0.8f, 0.6f}},  // a ramp rising from the same edge
  });
  RepairReport report;
  auto mesh = Repair(fin, TrianglesOnly(), &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(report.counts.non_manifold, 1);
  EXPECT_EQ(mesh->info.repairs.non_manifold, 1);
  ASSERT_EQ(report.findings.size(), 1);
  EXPECT_NE(report.findings[0].find("non-manifold"), std::string::npos);
  EXPECT_NE(report.findings[0].find("(0.000, 0.000, 0.000)-(1.000, 0.000, 0.000)"),
            std::string::npos)
      << report.findings[0];
  ASSERT_EQ(mesh->polygon_count(), 3);
  // Find the two floor triangles (flat) and the ramp by height.
  int ramp = -1;
  for (uint32_t p = 0; p < 3; ++p) {
    for (uint32_t i = 0; i < 3; ++i) ramp = CornerOf(*mesh, p, i).y > 0.5f ? int(p) : ramp;
  }
  ASSERT_GE(ramp, 0);
  EXPECT_TRUE(NeighboursOf(*mesh, ramp).empty());
  for (uint32_t p = 0; p < 3; ++p) {
    if (int(p) != ramp) {
      EXPECT_EQ(NeighboursOf(*mesh, p).size(), 1);
    }
  }
  EXPECT_TRUE(MeshInvariantsHold(*mesh));
}

// Three polygons: a square, an L-shaped hexagon (non-convex) and a pentagon with a straight
// corner, sharing edges; input clockwise for the square to check winding is normalised.
SourceMesh KeptPolygonsMesh() {
  SourceMesh m = PolygonMesh(
      {
          {0, 0, 0},
          {1, 0, 0},
          {2, 0, 0},
          {2, 0, 1},
          {1, 0, 1},
          {1, 0, 2},
          {0, 0, 2},  // 0..6
          {0, 0, 1},
          {3, 0, 0},
          {3, 0, 1},  // 7..9
          {0, 0, -1},
          {1, 0, -1},  // 10..11
      },
      {{0, 1, 2, 3, 4, 5, 6}, {2, 8, 9, 3}, {0, 1, 11, 10}});
  // Polygon 0 is the L (0,0)-(2,0)-(2,1)-(1,1)-(1,2)-(0,2) with a straight corner at (1,0);
  // polygon 1 is the square right of it, polygon 2 the square below it, clockwise in the file.
  m.declared_neighbors = {2, -1, 1, -1, -1, -1, -1, /**/ -1, -1, -1, 0, /**/ 0, -1, -1, -1};
  return m;
}

TEST(RepairKeepPolygons, MergeFalseGivesBackTheInputPolygons) {
  const SourceMesh src = KeptPolygonsMesh();
  auto mesh = Repair(src, NoMerge());
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  ASSERT_EQ(mesh->polygon_count(), 3);
  EXPECT_EQ(mesh->source_polygon, (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(mesh->corner_count(0), 7);
  EXPECT_EQ(mesh->corner_count(1), 4);
  EXPECT_EQ(mesh->corner_count(2), 4);
  // Same corners from the same first corner, in map winding.
  EXPECT_EQ(CornerOf(*mesh, 0, 0), (Vec3{0, 0, 0}));
  EXPECT_EQ(CornerOf(*mesh, 2, 0), (Vec3{0, 0, 0}));
  EXPECT_EQ(CornerOf(*mesh, 2, 1), (Vec3{0, 0, -1}));  // reversed: the file is clockwise
  EXPECT_TRUE(DeclaredAdjacencyMismatches(*mesh, src).empty())
      << ::testing::PrintToString(DeclaredAdjacencyMismatches(*mesh, src));
  EXPECT_TRUE(MeshInvariantsHold(*mesh, {.require_convex = false}));
}

TEST(RepairKeepPolygons, MergeTrueMakesConvexPolygonsOfTheSameSurface) {
  auto mesh = Repair(KeptPolygonsMesh());
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_TRUE(mesh->source_polygon.empty());
  EXPECT_TRUE(MeshInvariantsHold(*mesh));
  EXPECT_NEAR(mesh->info.walkable_area, 3 + 1 + 1, 1e-6);
}

}  // namespace
}  // namespace waymesh::testing
