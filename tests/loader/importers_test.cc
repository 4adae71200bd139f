// Importers on real data: every export in ../shared/data/unity and every Polyanya mesh imports
// with the counts the data README states, plus the project's own export fixture.

#include "waymesh/import/importers.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "support/test_data.h"
#include "waymesh/import/export_writer.h"

namespace waymesh {
namespace {

using testing::Fixture;
using testing::ReadFileOrDie;
using testing::SharedData;

SourceMesh ImportOrDie(const std::string& path, const ImportOptions& options = {}) {
  absl::StatusOr<SourceMesh> mesh = ImportFile(path, options);
  EXPECT_TRUE(mesh.ok()) << mesh.status();
  return mesh.ok() ? *std::move(mesh) : SourceMesh{};
}

// Structural invariants every importer guarantees.
void ExpectWellFormed(const SourceMesh& mesh) {
  ASSERT_FALSE(mesh.poly_start.empty());
  EXPECT_EQ(mesh.poly_start.front(), 0u);
  EXPECT_EQ(mesh.poly_start.back(), mesh.poly_verts.size());
  EXPECT_EQ(mesh.poly_area.size(), mesh.polygon_count());
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    ASSERT_GE(mesh.poly_start[p + 1], mesh.poly_start[p] + 3) << "polygon " << p;
  }
  for (uint32_t v : mesh.poly_verts) ASSERT_LT(v, mesh.vertices.size());
  for (const Vec3& v : mesh.vertices) ASSERT_TRUE(IsFinite(v));
  for (uint8_t a : mesh.poly_area) {
    ASSERT_LT(a, mesh.areas.size());
    ASSERT_TRUE(mesh.areas[a].has_value());
  }
}

// Imports `path` as ImportOrDie does, expects it well formed with the given counts.
SourceMesh ImportWithCounts(const std::string& path, size_t vertices, uint32_t polygons) {
  SourceMesh mesh = ImportOrDie(path);
  ExpectWellFormed(mesh);
  EXPECT_EQ(mesh.vertices.size(), vertices) << path;
  EXPECT_EQ(mesh.polygon_count(), polygons) << path;
  return mesh;
}

bool AllTriangles(const SourceMesh& mesh) {
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    if (mesh.poly_start[p + 1] - mesh.poly_start[p] != 3) return false;
  }
  return true;
}

struct ServerCase {
  const char* file;
  size_t vertices;
  uint32_t triangles;
  const char* scene;
};

class ServerNavJsonTest : public ::testing::TestWithParam<ServerCase> {};

TEST_P(ServerNavJsonTest, ImportsWalkableTrianglesOnly) {
  const ServerCase& c = GetParam();
  // Only pathVertices/pathTriangles: the block and safe regions are not walkable surface.
  const SourceMesh mesh =
      ImportWithCounts(SharedData(std::string("unity/") + c.file), c.vertices, c.triangles);
  EXPECT_TRUE(AllTriangles(mesh));
  EXPECT_EQ(mesh.scene_name, c.scene);
  EXPECT_TRUE(std::all_of(mesh.poly_area.begin(), mesh.poly_area.end(),
                          [](uint8_t a) { return a == kWalkableArea; }));
  EXPECT_TRUE(mesh.declared_neighbors.empty());
  EXPECT_TRUE(mesh.links.empty());
}

INSTANTIATE_TEST_SUITE_P(RealData, ServerNavJsonTest,
                         ::testing::Values(ServerCase{"1000.navmesh", 445, 219, "map 1000"},
                                           ServerCase{"1100.navmesh", 770, 372, "map 1100"},
                                           ServerCase{"1200.navmesh", 352, 178, "map 1200"}));

TEST(ServerNavJsonTest, FirstVertexAndTriangleMatchTheFile) {
  const SourceMesh mesh = ImportOrDie(SharedData("unity/1000.navmesh"));
  ASSERT_FALSE(mesh.vertices.empty());
  // {"x":41,"y":10.55573,"z":7.5} and pathTriangles starting 0,1,2.
  EXPECT_EQ(mesh.vertices[0], (Vec3{41.0f, 10.55573f, 7.5f}));
  ASSERT_GE(mesh.poly_verts.size(), 3u);
  EXPECT_EQ(mesh.poly_verts[0], 0u);
  EXPECT_EQ(mesh.poly_verts[1], 1u);
  EXPECT_EQ(mesh.poly_verts[2], 2u);
}

TEST(ServerNavJsonTest, IdenticalDuplicateMembersAreAccepted) {
  // 1000.navmesh and 1200.navmesh repeat blockVertices/blockTriangles with equal values.
  const absl::StatusOr<SourceMesh> mesh = ImportServerNavJson(
      R"({"pathVertices": [{"x": 0, "y": 0, "z": 0}, {"x": 1, "y": 0, "z": 0},
                           {"x": 0, "y": 0, "z": 1}],
          "pathTriangles": [0, 1, 2], "mapID": 7, "mapID": 7})",
      "dup.navmesh");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->scene_name, "map 7");
  EXPECT_EQ(mesh->polygon_count(), 1u);
}

TEST(ObjImportTest, LearNavMeshHasReadmeCounts) {
  const SourceMesh mesh = ImportWithCounts(SharedData("unity/lear315/LayaNavMesh.obj"), 4450, 2030);
  EXPECT_TRUE(AllTriangles(mesh));
  // First line of the file: "v  0 1 0", then "v  -0.6 1 0"; "f" indices are 1-based.
  EXPECT_EQ(mesh.vertices[1], (Vec3{-0.6f, 1.0f, 0.0f}));
  // The map spans 80 m x 80 m.
  Aabb box;
  for (const Vec3& v : mesh.vertices) box.Extend(v);
  EXPECT_NEAR(box.max.x - box.min.x, 80.0f, 1.0f);
  EXPECT_NEAR(box.max.z - box.min.z, 80.0f, 1.0f);
}

TEST(ObjImportTest, MirrorXNegatesXOnly) {
  const std::string path = SharedData("unity/lear315/LayaNavMesh.obj");
  const SourceMesh plain = ImportOrDie(path);
  const SourceMesh mirrored = ImportOrDie(path, ImportOptions{.mirror_x = true});
  ASSERT_EQ(plain.vertices.size(), mirrored.vertices.size());
  int changed = 0;
  for (size_t i = 0; i < plain.vertices.size(); ++i) {
    EXPECT_EQ(mirrored.vertices[i].x, -plain.vertices[i].x);
    EXPECT_EQ(mirrored.vertices[i].y, plain.vertices[i].y);
    EXPECT_EQ(mirrored.vertices[i].z, plain.vertices[i].z);
    changed += plain.vertices[i].x != 0;
  }
  EXPECT_GT(changed, 1000);  // the exporter negated X, so almost every x is non-zero
  EXPECT_EQ(plain.poly_verts, mirrored.poly_verts);  // winding is the repair pipeline's job
}

TEST(ObjImportTest, RecastLevelGeometryImports) {
  // Level geometry, not navmeshes, but real OBJ from another exporter: CRLF line endings
  // (dungeon), v/vt/vn corners, quads, groups and materials (nav_test).
  const SourceMesh dungeon = ImportOrDie(SharedData("recast/dungeon.obj"));
  EXPECT_EQ(dungeon.vertices.size(), 5101u);
  EXPECT_EQ(dungeon.polygon_count(), 10133u);
  const SourceMesh nav_test = ImportWithCounts(SharedData("recast/nav_test.obj"), 884, 792);
  EXPECT_FALSE(AllTriangles(nav_test));
}

struct PolyanyaCase {
  const char* file;
  size_t vertices;
  uint32_t polygons;
};

class PolyanyaMeshTest : public ::testing::TestWithParam<PolyanyaCase> {};

TEST_P(PolyanyaMeshTest, ImportsWithSymmetricDeclaredNeighbours) {
  const PolyanyaCase& c = GetParam();
  const SourceMesh mesh =
      ImportWithCounts(SharedData(std::string("polyanya/") + c.file), c.vertices, c.polygons);
  ASSERT_EQ(mesh.declared_neighbors.size(), mesh.poly_verts.size());
  for (const Vec3& v : mesh.vertices) ASSERT_EQ(v.y, 0.0f);  // 2D: (x, y) -> (x, 0, y)
  int obstacles = 0;
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    const uint32_t begin = mesh.poly_start[p], n = mesh.poly_start[p + 1] - begin;
    // Counter-clockwise in (x, y) stays positive in the X-Z plan view.
    double area2 = 0;
    for (uint32_t i = 0; i < n; ++i) {
      const Vec3 a = mesh.vertices[mesh.poly_verts[begin + i]];
      const Vec3 b = mesh.vertices[mesh.poly_verts[begin + (i + 1) % n]];
      area2 += double(a.x) * b.z - double(b.x) * a.z;
    }
    EXPECT_GT(area2, 0) << "polygon " << p;
    for (uint32_t i = 0; i < n; ++i) {
      const int32_t q = mesh.declared_neighbors[begin + i];
      if (q < 0) {
        ++obstacles;
        continue;
      }
      ASSERT_LT(uint32_t(q), mesh.polygon_count());
      // q must name p back across the same two vertices.
      const uint32_t a = mesh.poly_verts[begin + i], b = mesh.poly_verts[begin + (i + 1) % n];
      const uint32_t qb = mesh.poly_start[q], qn = mesh.poly_start[q + 1] - qb;
      bool back = false;
      for (uint32_t j = 0; j < qn; ++j) {
        const uint32_t qa = mesh.poly_verts[qb + j], qc = mesh.poly_verts[qb + (j + 1) % qn];
        back = back || (mesh.declared_neighbors[qb + j] == int32_t(p) &&
                        ((qa == b && qc == a) || (qa == a && qc == b)));
      }
      EXPECT_TRUE(back) << "polygon " << p << " edge " << i << " -> " << q;
    }
  }
  EXPECT_GT(obstacles, 0);  // every finite mesh has a boundary
}

INSTANTIATE_TEST_SUITE_P(
    RealData, PolyanyaMeshTest,
    ::testing::Values(PolyanyaCase{"meshes/arena.mesh", 112, 120},
                      PolyanyaCase{"meshes/arena-merged.mesh", 112, 55},
                      PolyanyaCase{"meshes/aurora.mesh", 34707, 34816},
                      PolyanyaCase{"meshes/aurora-merged.mesh", 34707, 19244},
                      PolyanyaCase{"degenerate/bad-ambig.mesh", 9, 4},
                      PolyanyaCase{"degenerate/bad-collinear.mesh", 16, 6},
                      PolyanyaCase{"degenerate/bad-collinear2-rot0.mesh", 22, 7},
                      PolyanyaCase{"degenerate/bad-collinear2-rot45.mesh", 22, 7},
                      PolyanyaCase{"degenerate/bad-collinear2-rot90.mesh", 22, 7},
                      PolyanyaCase{"degenerate/hard.mesh", 36, 38},
                      PolyanyaCase{"degenerate/square.mesh", 5, 4}));

TEST(PolyanyaMeshTest, SquareNeighboursFollowVersion2EdgeConvention) {
  // square.mesh polygon 0 is "3 4 1 0 1 3 -1": corners 4, 1, 0 and p = [1, 3, -1], where p[i]
  // lies across corners i-1 -> i. So edge 4->1 faces polygon 3, 1->0 the outside, 0->4 polygon 1.
  const SourceMesh mesh = ImportOrDie(SharedData("polyanya/degenerate/square.mesh"));
  ASSERT_EQ(mesh.polygon_count(), 4u);
  EXPECT_EQ(std::vector<uint32_t>(mesh.poly_verts.begin(), mesh.poly_verts.begin() + 3),
            (std::vector<uint32_t>{4, 1, 0}));
  EXPECT_EQ(
      std::vector<int32_t>(mesh.declared_neighbors.begin(), mesh.declared_neighbors.begin() + 3),
      (std::vector<int32_t>{3, -1, 1}));
  EXPECT_EQ(mesh.vertices[1], (Vec3{1, 0, 0}));
  EXPECT_EQ(mesh.vertices[2], (Vec3{0, 0, -1}));
}

TEST(PolyanyaMeshTest, AuroraMergedHasLargeConvexPolygons) {
  const SourceMesh mesh = ImportOrDie(SharedData("polyanya/meshes/aurora-merged.mesh"));
  uint32_t smallest = UINT32_MAX, largest = 0;
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    const uint32_t n = mesh.poly_start[p + 1] - mesh.poly_start[p];
    smallest = std::min(smallest, n);
    largest = std::max(largest, n);
  }
  EXPECT_EQ(smallest, 3u);
  EXPECT_GT(largest, 12u);
}

TEST(UnityExportTest, FixtureImportsWithMetadataAreasAgentAndLink) {
  // 96 vertices: duplicated per triangle, as Unity writes them.
  const SourceMesh mesh = ImportWithCounts(Fixture("unity_export_fixture.json"), 96, 32);
  EXPECT_TRUE(AllTriangles(mesh));
  EXPECT_EQ(std::count(mesh.poly_area.begin(), mesh.poly_area.end(), 0), 24);
  EXPECT_EQ(std::count(mesh.poly_area.begin(), mesh.poly_area.end(), 3), 8);
  EXPECT_EQ(mesh.scene_name, "FixtureYard");
  EXPECT_EQ(mesh.source_hash.rfind("sha256:", 0), 0u);
  EXPECT_EQ(mesh.source_hash.size(), 7u + 64u);
  EXPECT_EQ(mesh.exporter_version, "1.0.0");
  EXPECT_EQ(mesh.unity_version, "2022.3.10f1");
  // agents[0] is the agent the triangulation was baked for (the second one is ignored).
  EXPECT_FLOAT_EQ(mesh.agent.radius, 0.5f);
  EXPECT_FLOAT_EQ(mesh.agent.height, 2.0f);
  EXPECT_FLOAT_EQ(mesh.agent.max_slope_deg, 45.0f);
  EXPECT_FLOAT_EQ(mesh.agent.step_height, 0.4f);
  EXPECT_FLOAT_EQ(mesh.agent.voxel_size, 0.1666667f);
  ASSERT_EQ(mesh.areas.size(), 4u);
  ASSERT_TRUE(mesh.areas[3].has_value());
  EXPECT_EQ(mesh.areas[3]->name, "Road");
  EXPECT_FLOAT_EQ(mesh.areas[3]->cost, 0.5f);
  ASSERT_TRUE(mesh.areas[2].has_value());
  EXPECT_EQ(mesh.areas[2]->name, "Jump");
  EXPECT_FLOAT_EQ(mesh.areas[2]->cost, 2.0f);
  ASSERT_EQ(mesh.links.size(), 1u);
  const SourceOffMeshLink& link = mesh.links[0];
  EXPECT_EQ(link.start, (Vec3{7.5f, 0.0f, 3.0f}));
  EXPECT_EQ(link.end, (Vec3{10.5f, 1.5f, 3.0f}));
  EXPECT_FLOAT_EQ(link.radius, 0.5f);
  EXPECT_TRUE(link.bidirectional);
  EXPECT_EQ(link.area, 2);
  EXPECT_LT(link.cost, 0.0f);
  // Raised platform triangles (area 3) are at 1.5 m, ground (area 0) at 0.
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    const float expected_y = mesh.poly_area[p] == 3 ? 1.5f : 0.0f;
    for (uint32_t c = mesh.poly_start[p]; c < mesh.poly_start[p + 1]; ++c) {
      EXPECT_EQ(mesh.vertices[mesh.poly_verts[c]].y, expected_y);
    }
  }
}

TEST(UnityExportTest, FixtureSurvivesExportWriterRoundTrip) {
  const SourceMesh original = ImportOrDie(Fixture("unity_export_fixture.json"));
  absl::StatusOr<std::string> json = WriteUnityExport(original);
  ASSERT_TRUE(json.ok()) << json.status();
  absl::StatusOr<SourceMesh> again = ImportUnityExport(*json, "round-trip.json");
  ASSERT_TRUE(again.ok()) << again.status();
  EXPECT_EQ(again->vertices, original.vertices);
  EXPECT_EQ(again->poly_verts, original.poly_verts);
  EXPECT_EQ(again->poly_area, original.poly_area);
  EXPECT_EQ(again->scene_name, original.scene_name);
  EXPECT_EQ(again->source_hash, original.source_hash);
  ASSERT_EQ(again->links.size(), 1u);
  EXPECT_EQ(again->links[0].end, original.links[0].end);
  ASSERT_TRUE(again->areas.size() > 3 && again->areas[3].has_value());
  EXPECT_EQ(again->areas[3]->name, "Road");
}

TEST(UnityExportTest, OptionalKeysTakeDefaults) {
  const absl::StatusOr<SourceMesh> mesh = ImportUnityExport(
      R"({"format": "waymesh-navmesh-export", "version": 1,
          "vertices": [0, 0, 0, 1, 0, 0, 0, 0, 1], "indices": [0, 1, 2]})",
      "minimal.json");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->polygon_count(), 1u);
  EXPECT_EQ(mesh->poly_area, (std::vector<uint8_t>{0}));
  const AgentSettings defaults;
  EXPECT_EQ(mesh->agent.radius, defaults.radius);
  EXPECT_EQ(mesh->agent.height, defaults.height);
  ASSERT_EQ(mesh->areas.size(), 3u);  // Unity's Walkable, Not Walkable, Jump
  EXPECT_EQ(mesh->areas[0]->name, "Walkable");
  EXPECT_EQ(mesh->areas[1]->name, "Not Walkable");
  EXPECT_EQ(mesh->areas[2]->name, "Jump");
  EXPECT_FLOAT_EQ(mesh->areas[2]->cost, 2.0f);
  EXPECT_TRUE(mesh->links.empty());
  EXPECT_TRUE(mesh->scene_name.empty());
}

}  // namespace
}  // namespace waymesh
