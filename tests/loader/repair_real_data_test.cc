// Repair pipeline on the real exports in ../shared/data: structural invariants, conserved
// area, and for Polyanya meshes kept as they are (merge = false), adjacency equal to the
// neighbours the files declare.

#include <string>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "repair_test_meshes.h"
#include "support/mesh_invariants.h"
#include "support/test_data.h"
#include "waymesh/import/importers.h"
#include "waymesh/repair/repair.h"

namespace waymesh::testing {
namespace {

SourceMesh Import(const std::string& relative, bool mirror_x = false) {
  absl::StatusOr<SourceMesh> mesh = ImportFile(SharedData(relative), {.mirror_x = mirror_x});
  EXPECT_TRUE(mesh.ok()) << relative << ": " << mesh.status();
  return mesh.ok() ? *std::move(mesh) : SourceMesh{};
}

class UnityExportRepair : public ::testing::TestWithParam<const char*> {};

TEST_P(UnityExportRepair, RepairsWithEveryInvariant) {
  const std::string file = GetParam();
  const SourceMesh src = Import(file, file.ends_with(".obj"));
  ASSERT_GT(src.polygon_count(), 0u);
  for (const RepairOptions& options : {RepairOptions{}, TrianglesOnly()}) {
    RepairReport report;
    auto mesh = Repair(src, options, &report);
    ASSERT_TRUE(mesh.ok()) << file << ": " << mesh.status();
    EXPECT_TRUE(MeshInvariantsHold(*mesh)) << file;
    EXPECT_NEAR(mesh->info.walkable_area, SourceSurfaceArea(src), 1e-6 * SourceSurfaceArea(src))
        << file;
    // Vertices are duplicated per triangle: about half of them weld away.
    EXPECT_GT(report.counts.welded, src.vertices.size() / 3) << file;
    EXPECT_LT(mesh->vertices.size(), src.vertices.size()) << file;
    EXPECT_FALSE(mesh->info.islands.empty()) << file;
    EXPECT_LE(mesh->polygon_count(), report.triangles);
    RecordProperty(
        file + (options.max_verts_per_poly == 3 ? " tris" : " merged"),
        absl::StrCat(mesh->polygon_count(), " polygons, ", report.counts.welded, " welded, ",
                     report.counts.t_junctions, " T-junctions, ", report.counts.non_manifold,
                     " non-manifold, ", report.counts.degenerate, " degenerate, ",
                     mesh->info.islands.size(), " islands"));
  }
}

INSTANTIATE_TEST_SUITE_P(Files, UnityExportRepair,
                         ::testing::Values("unity/1000.navmesh", "unity/1100.navmesh",
                                           "unity/1200.navmesh", "unity/lear315/LayaNavMesh.obj"));

TEST(UnityExportRepair, ScenesCombineIntoOneWorld) {
  std::vector<SourceMesh> scenes = {Import("unity/1000.navmesh"), Import("unity/1200.navmesh")};
  auto world = RepairMeshes(scenes, {}, nullptr);
  auto a = Repair(scenes[0]);
  auto b = Repair(scenes[1]);
  ASSERT_TRUE(world.ok() && a.ok() && b.ok());
  EXPECT_TRUE(MeshInvariantsHold(*world));
  EXPECT_NEAR(world->info.walkable_area, a->info.walkable_area + b->info.walkable_area,
              1e-6 * world->info.walkable_area);
  EXPECT_NE(world->info.source_hash, a->info.source_hash);
}

class PolyanyaKeptRepair : public ::testing::TestWithParam<const char*> {};

TEST_P(PolyanyaKeptRepair, AdjacencyEqualsTheDeclaredNeighbours) {
  const std::string file = GetParam();
  const SourceMesh src = Import(file);
  ASSERT_GT(src.polygon_count(), 0u);
  ASSERT_EQ(src.declared_neighbors.size(), src.poly_verts.size());
  RepairReport report;
  auto mesh = Repair(src, NoMerge(), &report);
  ASSERT_TRUE(mesh.ok()) << file << ": " << mesh.status();
  ASSERT_EQ(mesh->polygon_count(), src.polygon_count()) << file;
  for (uint32_t p = 0; p < mesh->polygon_count(); ++p) {
    ASSERT_EQ(mesh->source_polygon[p], p) << file;  // same indices as the file
  }
  const std::vector<std::string> mismatches = DeclaredAdjacencyMismatches(*mesh, src);
  EXPECT_TRUE(mismatches.empty()) << file << ":\n" << ::testing::PrintToString(mismatches);
  EXPECT_TRUE(MeshInvariantsHold(*mesh, {.require_convex = false})) << file;
  EXPECT_NEAR(mesh->info.walkable_area, SourcePlanArea(src), 1e-6 * SourcePlanArea(src)) << file;
  EXPECT_EQ(report.counts.non_manifold, 0) << file;
}

INSTANTIATE_TEST_SUITE_P(
    Files, PolyanyaKeptRepair,
    ::testing::Values("polyanya/meshes/arena.mesh", "polyanya/meshes/arena-merged.mesh",
                      "polyanya/meshes/aurora.mesh", "polyanya/meshes/aurora-merged.mesh",
                      "polyanya/degenerate/bad-ambig.mesh",
                      "polyanya/degenerate/bad-collinear.mesh",
                      "polyanya/degenerate/bad-collinear2-rot0.mesh",
                      "polyanya/degenerate/bad-collinear2-rot45.mesh",
                      "polyanya/degenerate/bad-collinear2-rot90.mesh",
                      "polyanya/degenerate/hard.mesh", "polyanya/degenerate/square.mesh"));

TEST(PolyanyaMergedRepair, AuroraMergesIntoConvexPolygonsOfTheSameArea) {
  const SourceMesh src = Import("polyanya/meshes/aurora.mesh");
  RepairReport report;
  auto mesh = Repair(src, {}, &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_TRUE(MeshInvariantsHold(*mesh));
  EXPECT_NEAR(mesh->info.walkable_area, SourcePlanArea(src), 1e-6 * SourcePlanArea(src));
  EXPECT_LT(mesh->polygon_count(), src.polygon_count() * 3 / 4);
  EXPECT_EQ(report.counts.non_manifold, 0);
}

}  // namespace
}  // namespace waymesh::testing
