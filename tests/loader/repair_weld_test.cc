// Repair pipeline: welding, degenerate triangles and winding.

#include <algorithm>
#include <random>

#include "gtest/gtest.h"
#include "repair_test_meshes.h"
#include "support/mesh_invariants.h"
#include "waymesh/repair/repair.h"

namespace waymesh::testing {
namespace {

// A unit quad as two triangles with separate vertex copies; the second triangle's copies of
// the shared diagonal are displaced by `shift`.
SourceMesh QuadWithShiftedSeam(float x0, Vec3 shift) {
  const Vec3 a{x0, 0, 0}, b{x0 + 1, 0, 0}, c{x0 + 1, 0, 1}, d{x0, 0, 1};
  return TriangleSoupMesh({{a, b, c}, {a + shift, c + shift, d}});
}

TEST(RepairWeld, PointsOneMillimetreApartWeldWhereverTheCellEdgesFall) {
  // Sweep the seam across several weld-hash cells in 0.5 mm steps: some positions put the two
  // copies on either side of a cell edge, and they must weld all the same.
  for (const Vec3 shift :
       {Vec3{0.001f, 0, 0}, Vec3{0, 0, 0.001f}, Vec3{0.0007f, 0.0002f, 0.0007f}}) {
    for (int step = 0; step < 100; ++step) {
      const float x0 = -0.025f + 0.0005f * step;
      RepairReport report;
      auto mesh = Repair(QuadWithShiftedSeam(x0, shift), TrianglesOnly(), &report);
      ASSERT_TRUE(mesh.ok()) << mesh.status();
      EXPECT_EQ(report.counts.welded, 2) << "x0 " << x0;
      EXPECT_EQ(mesh->vertices.size(), 4) << "x0 " << x0;
      ASSERT_EQ(mesh->polygon_count(), 2);
      EXPECT_EQ(NeighboursOf(*mesh, 0), std::vector<int64_t>{1}) << "x0 " << x0;
      EXPECT_TRUE(MeshInvariantsHold(*mesh));
    }
  }
}

TEST(RepairWeld, PointsBeyondToleranceStaySeparate) {
  RepairReport report;
  // Shifted off every edge too, so no copy is a T-junction on the other triangle.
  auto mesh = Repair(QuadWithShiftedSeam(0, {0.015f, 0, -0.015f}), TrianglesOnly(), &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(report.counts.welded, 0);
  EXPECT_EQ(report.counts.t_junctions, 0);
  EXPECT_EQ(mesh->vertices.size(), 6);
  EXPECT_EQ(WallEdges(*mesh), 6);
  EXPECT_TRUE(MeshInvariantsHold(*mesh));
}

TEST(RepairWeld, WeldToleranceIsAnOption) {
  RepairOptions o = TrianglesOnly();
  o.weld_tolerance = 0.02f;
  RepairReport report;
  auto mesh = Repair(QuadWithShiftedSeam(0, {0.015f, 0, 0}), o, &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(report.counts.welded, 2);
  EXPECT_EQ(WallEdges(*mesh), 4);
}

TEST(RepairWeld, WeldingDoesNotChain) {
  // Corners 8 mm apart in a row: the middle one joins the first, the last is 16 mm from it
  // and stays its own vertex (first-come representatives, no union-find chains).
  std::vector<Triangle> tris;
  for (int i = 0; i < 3; ++i) {
    const float x = 0.008f * i, z = 2.0f * i;
    tris.push_back({Vec3{x, 0, 0}, Vec3{x + 1, 0, z + 1}, Vec3{x - 1, 0, z + 1}});
  }
  RepairReport report;
  auto mesh = Repair(TriangleSoupMesh(tris), TrianglesOnly(), &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(report.counts.welded, 1);
  int near_origin = 0;
  for (const Vec3& v : mesh->vertices) near_origin += std::fabs(v.x) < 0.05f && v.z == 0;
  EXPECT_EQ(near_origin, 2);
}

TEST(RepairWeld, ResultDoesNotDependOnVertexOrder) {
  SourceMesh grid = GridSoup(12, 9, 1.0f, 0, 0, [](float x, float z) { return 0.01f * x * z; });
  // Near-duplicate copies, as in real exports: which copy represents a weld must not depend
  // on where it sits in the vertex array.
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> jitter(-2e-4f, 2e-4f);
  for (Vec3& v : grid.vertices) v = v + Vec3{jitter(rng), jitter(rng), jitter(rng)};
  SourceMesh shuffled = grid;
  std::vector<uint32_t> perm(grid.vertices.size());
  for (uint32_t i = 0; i < perm.size(); ++i) perm[i] = i;
  std::shuffle(perm.begin(), perm.end(), std::mt19937(7));
  for (uint32_t i = 0; i < perm.size(); ++i) shuffled.vertices[perm[i]] = grid.vertices[i];
  for (uint32_t& v : shuffled.poly_verts) v = perm[v];
  auto a = Repair(grid);
  auto b = Repair(shuffled);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->vertices, b->vertices);
  EXPECT_EQ(a->poly_verts, b->poly_verts);
  EXPECT_EQ(a->poly_neighbors, b->poly_neighbors);
}

TEST(RepairDegenerate, DropsRepeatedTinyAndVerticalTriangles) {
  std::vector<Triangle> tris = {
      {Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{1, 0, 1}},          // good
      {Vec3{0, 0, 0}, Vec3{0.004f, 0, 0}, Vec3{1, 0, 1}},     // two corners weld
      {Vec3{5, 0, 5}, Vec3{6, 0, 5}, Vec3{7, 0, 5.000001f}},  // no plan-view area
      {Vec3{9, 0, 9}, Vec3{10, 0, 9}, Vec3{10, 5, 9.0001f}},  // vertical wall
  };
  RepairReport report;
  auto mesh = Repair(TriangleSoupMesh(tris), {}, &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(report.input_triangles, 4);
  EXPECT_EQ(report.counts.degenerate, 3);
  EXPECT_EQ(report.triangles, 1);
  EXPECT_EQ(mesh->polygon_count(), 1);
  EXPECT_EQ(mesh->info.repairs.degenerate, 3);
  EXPECT_TRUE(MeshInvariantsHold(*mesh));
}

// Copies of a triangle (also rotated, mirrored and off by less than the weld) are one
// triangle; kept, 20 000 copies made 20 000 islands and took edge pairing quadratic time.
TEST(RepairDuplicates, DropsRepeatsOfATriangleAndCountsThem) {
  const Triangle base{Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{1, 0, 1}};
  std::vector<Triangle> tris = {base, {Vec3{3, 0, 0}, Vec3{4, 0, 0}, Vec3{4, 0, 1}}};
  for (int i = 0; i < 20000; ++i) {
    switch (i % 3) {
      case 0:
        tris.push_back({base[1], base[2], base[0]});
        break;
      case 1:
        tris.push_back({base[0], base[2], base[1]});  // the other winding
        break;
      default:
        tris.push_back({base[0] + Vec3{0.001f, 0, 0}, base[1], base[2]});  // welds onto it
    }
  }
  RepairReport report;
  auto mesh = Repair(TriangleSoupMesh(tris), {}, &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(report.duplicates, 20000u);
  EXPECT_EQ(report.counts.degenerate, 0u);
  EXPECT_EQ(report.triangles, 2u);
  EXPECT_EQ(mesh->polygon_count(), 2u);
  EXPECT_EQ(mesh->info.islands.size(), 2u);
  EXPECT_TRUE(MeshInvariantsHold(*mesh));
}

TEST(RepairDegenerate, AllDegenerateIsAnError) {
  auto mesh = Repair(TriangleSoupMesh({{Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{2, 0, 0}}}));
  ASSERT_FALSE(mesh.ok());
  EXPECT_NE(mesh.status().message().find("degenerate"), std::string::npos) << mesh.status();
}

TEST(RepairWinding, ClockwiseAndMixedInputComesOutInMapWinding) {
  SourceMesh grid = GridSoup(4, 4, 1.0f);
  // Flip every other triangle, as a mirrored exporter would flip all of them.
  for (uint32_t p = 0; p < grid.polygon_count(); p += 2) {
    std::swap(grid.poly_verts[grid.poly_start[p] + 1], grid.poly_verts[grid.poly_start[p] + 2]);
  }
  auto mesh = Repair(grid, TrianglesOnly());
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  for (uint32_t p = 0; p < mesh->polygon_count(); ++p) {
    EXPECT_GT(TriArea2XZ(CornerOf(*mesh, p, 0), CornerOf(*mesh, p, 1), CornerOf(*mesh, p, 2)), 0);
  }
  EXPECT_EQ(WallEdges(*mesh), 16);  // only the outer boundary: flipped triangles still pair
  EXPECT_TRUE(MeshInvariantsHold(*mesh));
}

}  // namespace
}  // namespace waymesh::testing
