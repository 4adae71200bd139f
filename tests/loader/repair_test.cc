// Repair pipeline: combining sources, metadata, off-mesh links, islands, bad input,
// determinism and progress.

#include "waymesh/repair/repair.h"

#include <cmath>
#include <limits>
#include <random>

#include "gtest/gtest.h"
#include "repair_test_meshes.h"
#include "support/mesh_invariants.h"

namespace waymesh::testing {
namespace {

std::vector<SourceMesh> TwoScenes() {
  // Two 4 x 4 m scenes meeting at x = 4; the right one is offset by 2 mm and its seam
  // vertices sit every 0.5 m, against every 1 m on the left (T-junctions at the seam).
  SourceMesh left = GridSoup(4, 4, 1.0f, 0, 0, nullptr, "left.json");
  SourceMesh right = GridSoup(8, 8, 0.5f, 4.002f, 0, nullptr, "right.json");
  left.scene_name = "Left";
  left.agent.radius = 0.3f;
  right.scene_name = "Right";
  left.areas.resize(4);
  left.areas[3] = AreaType{"Water", 3.0f};
  return {left, right};
}

TEST(RepairCombine, ScenesAreWeldedAtTheSeamIntoOneIsland) {
  const std::vector<SourceMesh> scenes = TwoScenes();
  RepairReport report;
  auto mesh = RepairMeshes(scenes, {}, &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->info.islands.size(), 1);
  EXPECT_EQ(report.counts.t_junctions, 4);  // right side vertices at z = 0.5, 1.5, 2.5, 3.5
  EXPECT_EQ(report.input_polygons, 32 + 128);
  EXPECT_NEAR(mesh->info.walkable_area, 16 + 16, 0.05);
  EXPECT_TRUE(MeshInvariantsHold(*mesh));
  // First source's metadata, areas merged.
  EXPECT_EQ(mesh->info.name, "Left");
  EXPECT_FLOAT_EQ(mesh->info.agent.radius, 0.3f);
  EXPECT_EQ(mesh->info.areas[3].name, "Water");
  EXPECT_EQ(mesh->info.areas[0].name, "Walkable");
  EXPECT_EQ(mesh->info.build_tool_version.rfind("waymesh ", 0), 0u);
}

TEST(RepairCombine, SourceHashCoversEverySource) {
  std::vector<SourceMesh> scenes = TwoScenes();
  auto a = RepairMeshes(scenes, {}, nullptr);
  scenes[1].vertices[0].y += 0.001f;
  auto b = RepairMeshes(scenes, {}, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_FALSE(a->info.source_hash.empty());
  EXPECT_NE(a->info.source_hash, b->info.source_hash);
  scenes[0].source_hash = "abc";
  auto single = Repair(scenes[0]);
  ASSERT_TRUE(single.ok());
  EXPECT_EQ(single->info.source_hash, "abc");
}

TEST(RepairCombine, ConflictingAreaDefinitionsNameBothFiles) {
  std::vector<SourceMesh> scenes = TwoScenes();
  scenes[1].areas.resize(4);
  scenes[1].areas[3] = AreaType{"Lava", 3.0f};
  auto mesh = RepairMeshes(scenes, {}, nullptr);
  ASSERT_FALSE(mesh.ok());
  const std::string message(mesh.status().message());
  EXPECT_NE(message.find("left.json"), std::string::npos) << message;
  EXPECT_NE(message.find("right.json"), std::string::npos) << message;
  EXPECT_NE(message.find("area 3"), std::string::npos) << message;
  scenes[1].areas[3] = AreaType{"Water", 3.0f};  // the same definition twice is fine
  EXPECT_TRUE(RepairMeshes(scenes, {}, nullptr).ok());
}

// Two 2 x 2 m floors: one at y = 0 around the origin, one at y = 3 from x = 10.
SourceMesh TwoFloors() {
  SourceMesh a = GridSoup(2, 2, 1.0f, 0, 0);
  const SourceMesh b = GridSoup(4, 4, 1.0f, 10, 0, [](float, float) { return 3.0f; });
  const uint32_t base = uint32_t(a.vertices.size());
  a.vertices.insert(a.vertices.end(), b.vertices.begin(), b.vertices.end());
  for (uint32_t p = 0; p < b.polygon_count(); ++p) {
    const uint32_t c = b.poly_start[p];
    a.AddPolygon({base + b.poly_verts[c], base + b.poly_verts[c + 1], base + b.poly_verts[c + 2]});
  }
  return a;
}

TEST(RepairIslands, OrderedLargestFirstAndGroupedByLinks) {
  SourceMesh m = TwoFloors();
  auto apart = Repair(m);
  ASSERT_TRUE(apart.ok()) << apart.status();
  ASSERT_EQ(apart->info.islands.size(), 2);
  EXPECT_GT(apart->info.islands[0].area, apart->info.islands[1].area);
  EXPECT_NEAR(apart->info.islands[0].area, 16, 1e-6);
  EXPECT_NEAR(apart->info.islands[1].area, 4, 1e-6);
  EXPECT_NE(apart->info.islands[0].group, apart->info.islands[1].group);
  m.links.push_back({Vec3{1.9f, 0, 1}, Vec3{10.1f, 3, 1}, 0.5f, false});  // one way suffices
  auto linked = Repair(m);
  ASSERT_TRUE(linked.ok()) << linked.status();
  EXPECT_EQ(linked->info.islands[0].group, linked->info.islands[1].group);
  EXPECT_TRUE(MeshInvariantsHold(*linked));
}

TEST(RepairLinks, EndsAttachToTheNearestFloorAndCostsFollowTheArea) {
  SourceMesh m = TwoFloors();
  m.areas.resize(3);
  m.areas[2] = AreaType{"Jump", 2.5f};
  m.links.push_back({Vec3{1, 0.1f, 1}, Vec3{11, 3.1f, 2}, 0.5f, true, 2, -1.0f});
  m.links.push_back({Vec3{1, 0, 1}, Vec3{30, 0, 30}, 0.5f, true, 0, 5.0f});     // end off mesh
  m.links.push_back({Vec3{2.3f, 0, 1}, Vec3{12, 3, 2}, 0.5f, false, 0, 7.0f});  // 0.3 m out
  RepairReport report;
  auto mesh = Repair(m, {}, &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  ASSERT_EQ(mesh->links.size(), 2);
  EXPECT_EQ(report.off_mesh_links, 2);
  EXPECT_EQ(report.off_mesh_links_dropped, 1);
  ASSERT_EQ(report.findings.size(), 1);
  EXPECT_NE(report.findings[0].find("link 1"), std::string::npos) << report.findings[0];
  EXPECT_NE(report.findings[0].find("(30.000, 0.000, 30.000)"), std::string::npos);
  const ResolvedOffMeshLink& jump = mesh->links[0];
  EXPECT_EQ(jump.id, 0);
  EXPECT_TRUE(jump.bidirectional);
  EXPECT_NEAR(jump.cost, Distance(jump.start, jump.end) * 2.5f, 1e-4);
  EXPECT_NE(mesh->poly_island[jump.start_poly], mesh->poly_island[jump.end_poly]);
  EXPECT_EQ(CornerOf(*mesh, jump.end_poly, 0).y, 3.0f);
  EXPECT_EQ(mesh->links[1].id, 2);
  EXPECT_FLOAT_EQ(mesh->links[1].cost, 7.0f);
  EXPECT_FALSE(mesh->links[1].bidirectional);
  EXPECT_TRUE(mesh->info.areas[2].used);
  EXPECT_EQ(mesh->info.off_mesh_link_count, 2);
}

TEST(RepairLinks, StackedFloorsPickTheFloorNearestInHeight) {
  // Two floors directly above each other, 3 m apart.
  SourceMesh m = GridSoup(2, 2, 1.0f);
  const SourceMesh upper = GridSoup(2, 2, 1.0f, 0, 0, [](float, float) { return 3.0f; });
  const uint32_t base = uint32_t(m.vertices.size());
  m.vertices.insert(m.vertices.end(), upper.vertices.begin(), upper.vertices.end());
  for (uint32_t p = 0; p < upper.polygon_count(); ++p) {
    const uint32_t c = upper.poly_start[p];
    m.AddPolygon({base + upper.poly_verts[c], base + upper.poly_verts[c + 1],
                  base + upper.poly_verts[c + 2]});
  }
  m.links.push_back({Vec3{0.5f, 2.9f, 0.5f}, Vec3{1.5f, 0.2f, 1.5f}, 0.5f});
  m.links.push_back({Vec3{0.5f, 1.5f, 0.5f}, Vec3{1.5f, 0.2f, 1.5f}, 0.5f});  // mid-air
  RepairReport report;
  auto mesh = Repair(m, {}, &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  ASSERT_EQ(mesh->links.size(), 1);
  EXPECT_EQ(CornerOf(*mesh, mesh->links[0].start_poly, 0).y, 3.0f);
  EXPECT_EQ(CornerOf(*mesh, mesh->links[0].end_poly, 0).y, 0.0f);
  EXPECT_EQ(report.off_mesh_links_dropped, 1);
}

TEST(RepairBadInput, ErrorsSayWhatAndWhere) {
  struct Case {
    std::string name;
    std::function<void(SourceMesh&)> spoil;
    std::string expect;
  };
  const std::vector<Case> cases = {
      {"index", [](SourceMesh& m) { m.poly_verts[5] = 9999; },
       "polygon 1 corner 2 uses vertex 9999"},
      {"nan", [](SourceMesh& m) { m.vertices[3].y = std::nanf(""); }, "vertex 3"},
      {"inf", [](SourceMesh& m) { m.vertices[4].x = 1e30f; }, "vertex 4"},
      {"area", [](SourceMesh& m) { m.poly_area[2] = 64; }, "polygon 2 has area id 64"},
      {"csr", [](SourceMesh& m) { m.poly_start.back() += 1; }, "polygon table"},
      {"short", [](SourceMesh& m) { m.poly_start[1] = 2; }, "polygon 0 has fewer than 3"},
      {"areas", [](SourceMesh& m) { m.poly_area.pop_back(); }, "area ids"},
      {"empty", [](SourceMesh& m) { m = SourceMesh{.origin = "bad.obj"}; }, "no polygons"},
      {"link",
       [](SourceMesh& m) {
         m.links.push_back({Vec3{0, std::nanf(""), 0}, Vec3{}});
       },
       "off-mesh link 0"},
  };
  for (const Case& c : cases) {
    SourceMesh m = GridSoup(2, 2, 1.0f, 0, 0, nullptr, "bad.obj");
    c.spoil(m);
    auto mesh = Repair(m);
    ASSERT_FALSE(mesh.ok()) << c.name;
    const std::string message(mesh.status().message());
    EXPECT_NE(message.find("bad.obj"), std::string::npos) << c.name << ": " << message;
    EXPECT_NE(message.find(c.expect), std::string::npos) << c.name << ": " << message;
  }
  EXPECT_FALSE(RepairMeshes({}, {}, nullptr).ok());
}

TEST(RepairBadInput, OptionsAreValidated) {
  const SourceMesh m = GridSoup(2, 2, 1.0f);
  std::vector<RepairOptions> bad(6);
  bad[0].max_verts_per_poly = 2;
  bad[1].max_verts_per_poly = 65;
  bad[2].tile_size = 0;
  bad[3].weld_tolerance = std::numeric_limits<float>::quiet_NaN();
  bad[4].t_junction_tolerance = -1;
  bad[5].merge_height_tolerance = std::numeric_limits<float>::infinity();
  for (const RepairOptions& o : bad) {
    auto mesh = Repair(m, o);
    ASSERT_FALSE(mesh.ok());
    EXPECT_NE(mesh.status().message().find("repair option"), std::string::npos) << mesh.status();
  }
}

TEST(RepairPipeline, IsDeterministic) {
  const std::vector<SourceMesh> scenes = TwoScenes();
  auto a = RepairMeshes(scenes, {}, nullptr);
  auto b = RepairMeshes(scenes, {}, nullptr);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->vertices, b->vertices);
  EXPECT_EQ(a->poly_start, b->poly_start);
  EXPECT_EQ(a->poly_verts, b->poly_verts);
  EXPECT_EQ(a->poly_neighbors, b->poly_neighbors);
  EXPECT_EQ(a->poly_tile, b->poly_tile);
}

TEST(RepairPipeline, ReportsProgressInOrder) {
  const SourceMesh m = GridSoup(3, 3, 1.0f);
  std::vector<std::pair<std::string, double>> steps;
  RepairReport report;
  auto mesh = RepairMeshes(std::span<const SourceMesh>(&m, 1), {}, &report,
                           [&](std::string_view step, double f) { steps.emplace_back(step, f); });
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  ASSERT_GE(steps.size(), 5);
  for (size_t i = 1; i < steps.size(); ++i) EXPECT_GE(steps[i].second, steps[i - 1].second);
  EXPECT_EQ(steps.back().second, 1.0);
  EXPECT_EQ(report.input_vertices, 54);
  EXPECT_EQ(report.counts.welded, 54 - 16);
  EXPECT_EQ(report.output_vertices, 16);
  EXPECT_EQ(report.boundary_edges, WallEdges(*mesh));
  EXPECT_EQ(mesh->info.repairs.welded, report.counts.welded);
}

}  // namespace
}  // namespace waymesh::testing

namespace waymesh::testing {
namespace {

// Random overlapping triangles on a coarse lattice: shared edges, fins, folds, T-junctions
// and collinear corners everywhere. The pipeline must neither crash nor break an invariant.
TEST(RepairPipeline, RandomLatticeSoupsKeepEveryInvariant) {
  for (uint32_t seed = 1; seed <= 12; ++seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> cell(0, 8), level(0, 1);
    std::vector<Triangle> tris;
    for (int i = 0; i < 120; ++i) {
      Triangle t;
      for (Vec3& v : t) v = {0.5f * cell(rng), 0.3f * level(rng), 0.5f * cell(rng)};
      tris.push_back(t);
    }
    for (const RepairOptions& o : {RepairOptions{}, TrianglesOnly(), NoMerge()}) {
      RepairReport report;
      auto mesh = Repair(TriangleSoupMesh(tris), o, &report);
      ASSERT_TRUE(mesh.ok()) << "seed " << seed << ": " << mesh.status();
      EXPECT_TRUE(MeshInvariantsHold(*mesh, {.require_convex = o.merge})) << "seed " << seed;
      EXPECT_EQ(report.polygons, mesh->polygon_count());
    }
  }
}

}  // namespace
}  // namespace waymesh::testing
