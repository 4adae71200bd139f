// `waymesh bake` on the Recast demo geometry in ../shared/data/recast: the baked maps are clean,
// answer the demo's path queries, climb the dungeon's stairs, keep the terrain's heights, stay
// connected across tile seams, and apply area volumes and off-mesh links. Voxels are coarse
// (0.3 m) to keep the suite fast under sanitizers.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "support/defect_maps.h"
#include "support/mesh_invariants.h"
#include "support/query_points.h"
#include "support/test_data.h"
#include "waymesh/bake/baker.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/format/map_file.h"
#include "waymesh/import/importers.h"
#include "waymesh/repair/repair.h"

namespace waymesh::testing {
namespace {

using ::testing::HasSubstr;

// The Recast demo's agent (radius 0.6, height 2, climb 0.9, slope 45) on 0.3 m voxels.
BakeSettings DemoSettings(int tile_size = 64) {
  BakeSettings s;
  s.agent.radius = 0.6f;
  s.agent.height = 2.0f;
  s.agent.step_height = 0.9f;
  s.agent.max_slope_deg = 45.0f;
  s.agent.voxel_size = 0.3f;
  s.cell_height = 0.2f;
  s.tile_size = tile_size;
  return s;
}

struct Baked {
  BakeReport bake;
  RepairReport repair;
  RepairedMesh mesh;
  std::shared_ptr<const NavMap> map;
};

SourceMesh ImportRecast(const std::string& name) {
  absl::StatusOr<SourceMesh> geometry = ImportFile(SharedData("recast/" + name));
  EXPECT_TRUE(geometry.ok()) << geometry.status();
  return geometry.ok() ? *std::move(geometry) : SourceMesh{};
}

// Bake -> repair -> compile -> load, keeping the repaired mesh for the invariant checks.
std::unique_ptr<Baked> Bake(const SourceMesh& geometry, const BakeSettings& settings,
                            const BakeVolumes& extras = DefaultBakeVolumes()) {
  auto out = std::make_unique<Baked>();
  absl::StatusOr<SourceMesh> surface = BakeNavMesh(geometry, settings, extras, &out->bake);
  EXPECT_TRUE(surface.ok()) << surface.status();
  if (!surface.ok()) return nullptr;
  absl::StatusOr<RepairedMesh> mesh = RepairMeshes(std::span<const SourceMesh>(&*surface, 1),
                                                   BakeRepairOptions(settings), &out->repair);
  EXPECT_TRUE(mesh.ok()) << mesh.status();
  if (!mesh.ok()) return nullptr;
  out->mesh = *std::move(mesh);
  absl::StatusOr<std::string> bytes = CompileMap(out->mesh);
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  if (!bytes.ok()) return nullptr;
  absl::StatusOr<std::shared_ptr<const NavMap>> map =
      LoadMap(std::make_shared<const std::string>(*std::move(bytes)));
  EXPECT_TRUE(map.ok()) << map.status();
  if (!map.ok()) return nullptr;
  out->map = *map;
  return out;
}

struct PathQuery {
  Vec3 start, end;
  uint16_t include, exclude;
};

std::vector<PathQuery> ReadNavMeshTestQueries() {
  std::istringstream in(ReadFileOrDie(SharedData("recast/TestCases/nav_mesh_test.txt")));
  std::vector<PathQuery> queries;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string kind;
    PathQuery q;
    unsigned include = 0, exclude = 0;
    if (!(words >> kind) || kind != "pf") continue;
    words >> q.start.x >> q.start.y >> q.start.z >> q.end.x >> q.end.y >> q.end.z >> std::hex >>
        include >> exclude;
    EXPECT_FALSE(words.fail()) << line;
    q.include = static_cast<uint16_t>(include);
    q.exclude = static_cast<uint16_t>(exclude);
    queries.push_back(q);
  }
  return queries;
}

// Every baked map is a clean navmesh: the repair invariants hold and it loads.
class BakeRealGeometry : public ::testing::TestWithParam<const char*> {};

TEST_P(BakeRealGeometry, BakesACleanMapWithTheAgentSettings) {
  const SourceMesh geometry = ImportRecast(GetParam());
  const BakeSettings settings = DemoSettings();
  const std::unique_ptr<Baked> baked = Bake(geometry, settings);
  ASSERT_NE(baked, nullptr);
  EXPECT_TRUE(MeshInvariantsHold(baked->mesh));
  EXPECT_GT(baked->bake.walkable_triangles, 0u);
  EXPECT_LT(baked->bake.walkable_triangles, baked->bake.input_triangles);  // walls are not floor
  EXPECT_EQ(baked->bake.detail_triangles, baked->repair.input_triangles);
  const MapInfo& info = baked->map->info();
  EXPECT_GT(info.polygon_count, 50u);
  EXPECT_FLOAT_EQ(info.agent.radius, settings.agent.radius);
  EXPECT_FLOAT_EQ(info.agent.height, settings.agent.height);
  EXPECT_FLOAT_EQ(info.agent.step_height, settings.agent.step_height);
  EXPECT_FLOAT_EQ(info.agent.max_slope_deg, settings.agent.max_slope_deg);
  EXPECT_FLOAT_EQ(info.agent.voxel_size, settings.agent.voxel_size);
  EXPECT_FLOAT_EQ(info.tile_size, settings.tile_size * settings.agent.voxel_size);
  // The surface lies inside the geometry's bounds (no voxel offset, no mirrored axis).
  Aabb bounds;
  for (const Vec3& v : geometry.vertices) bounds.Extend(v);
  EXPECT_GE(info.bounds.min.x, bounds.min.x - 1e-3f);
  EXPECT_LE(info.bounds.max.x, bounds.max.x + 1e-3f);
  EXPECT_GE(info.bounds.min.z, bounds.min.z - 1e-3f);
  EXPECT_LE(info.bounds.max.z, bounds.max.z + 1e-3f);
  EXPECT_GE(info.bounds.min.y, bounds.min.y - 1.0f);
  EXPECT_LE(info.bounds.max.y, bounds.max.y + 1.0f);
}

INSTANTIATE_TEST_SUITE_P(Recast, BakeRealGeometry,
                         ::testing::Values("dungeon.obj", "nav_test.obj", "undulating.obj"));

void ExpectDemoQueriesComplete(const std::shared_ptr<const NavMap>& map) {
  const std::vector<PathQuery> queries = ReadNavMeshTestQueries();
  ASSERT_EQ(queries.size(), 21u);
  NavQuery query(map);
  PathResult path;
  for (size_t i = 0; i < queries.size(); ++i) {
    const PathQuery& q = queries[i];
    QueryFilter filter(map->info());
    filter.set_include_flags(q.include);
    filter.set_exclude_flags(q.exclude);
    ASSERT_TRUE(query.FindPath(q.start, q.end, filter, PathOptions{}, &path).ok());
    EXPECT_EQ(path.status, QueryStatus::kComplete)
        << "query " << i << ": " << QueryStatusName(path.status);
    if (path.status != QueryStatus::kComplete) continue;
    // Never shorter than the straight line between the snapped ends.
    EXPECT_GE(path.length, Distance(path.start.pos, path.end.pos) - 1e-3) << "query " << i;
    EXPECT_LT(DistanceXZ(path.waypoints.back().pos, q.end), 1.0f) << "query " << i;
  }
}

TEST(BakeTest, NavTestAnswersTheDemoPathQueries) {
  const std::unique_ptr<Baked> baked = Bake(ImportRecast("nav_test.obj"), DemoSettings());
  ASSERT_NE(baked, nullptr);
  ExpectDemoQueriesComplete(baked->map);
}

// Small tiles put many seams across the level: they must weld, or paths would stop there.
TEST(BakeTest, SmallTilesStitchIntoTheSameSurface) {
  const SourceMesh geometry = ImportRecast("nav_test.obj");
  const std::unique_ptr<Baked> one = Bake(geometry, DemoSettings(kMaxBakeTileSize));
  const std::unique_ptr<Baked> many = Bake(geometry, DemoSettings(kMinBakeTileSize));
  ASSERT_NE(one, nullptr);
  ASSERT_NE(many, nullptr);
  EXPECT_EQ(one->bake.grid_width * one->bake.grid_height, 1u);
  EXPECT_GT(many->bake.tiles_with_surface, 100u);
  EXPECT_GT(many->bake.seam_vertices, 0u);
  EXPECT_TRUE(MeshInvariantsHold(many->mesh));
  EXPECT_NEAR(many->map->info().walkable_area, one->map->info().walkable_area,
              0.02 * one->map->info().walkable_area);
  ExpectDemoQueriesComplete(many->map);
  // The big walkable islands are the same: seams do not cut them apart.
  auto areas = [](const MapInfo& info) {
    std::vector<double> out;
    for (const IslandInfo& island : info.islands) out.push_back(island.area);
    std::sort(out.rbegin(), out.rend());
    return out;
  };
  const std::vector<double> a = areas(one->map->info());
  const std::vector<double> b = areas(many->map->info());
  ASSERT_GE(a.size(), 3u);
  ASSERT_GE(b.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(b[i], a[i], 0.05 * a[i]) << i;
}

// The dungeon has several floors joined by stairs: a path from the ground floor to the top
// floor (points read off the baked map) is complete and climbs.
TEST(BakeTest, DungeonPathClimbsTheStairsBetweenFloors) {
  BakeSettings settings = DemoSettings();
  settings.agent.radius = 0.5f;
  settings.agent.step_height = 0.5f;
  const std::unique_ptr<Baked> baked = Bake(ImportRecast("dungeon.obj"), settings);
  ASSERT_NE(baked, nullptr);
  NavQuery query(baked->map);
  const Vec3 ground{-13.9f, 0.5f, 1.85f};
  const Vec3 top{19.8f, 17.7f, -77.4f};
  PathResult path;
  ASSERT_TRUE(query.FindPath(ground, top, QueryFilter(), PathOptions{}, &path).ok());
  ASSERT_EQ(path.status, QueryStatus::kComplete) << QueryStatusName(path.status);
  EXPECT_LT(path.start.pos.y, 2.0f);
  EXPECT_GT(path.end.pos.y, 16.0f);
  float low = 1e9f, high = -1e9f;
  for (const Waypoint& w : path.waypoints) {
    low = std::min(low, w.pos.y);
    high = std::max(high, w.pos.y);
  }
  EXPECT_GT(high - low, 15.0f);
  EXPECT_GE(path.length, Distance(path.start.pos, path.end.pos));
  // The corridor climbs gradually (stairs and ramps, no jump): consecutive waypoints never rise
  // more than the slope allows over their plan distance plus a step.
  for (size_t i = 1; i < path.waypoints.size(); ++i) {
    const Vec3 a = path.waypoints[i - 1].pos, b = path.waypoints[i].pos;
    EXPECT_LE(std::abs(b.y - a.y), DistanceXZ(a, b) + settings.agent.step_height + 0.2f) << i;
  }
}

// Height of the walkable geometry triangle under (x, z) nearest to `near_y`.
std::optional<float> GeometryHeight(const SourceMesh& g, float x, float z, float near_y) {
  std::optional<float> best;
  for (uint32_t p = 0; p < g.polygon_count(); ++p) {
    const uint32_t first = g.poly_start[p];
    for (uint32_t c = first + 2; c < g.poly_start[p + 1]; ++c) {
      const Vec3 a = g.vertices[g.poly_verts[first]], b = g.vertices[g.poly_verts[c - 1]],
                 d = g.vertices[g.poly_verts[c]];
      const float area = TriArea2XZ(a, b, d);
      if (std::abs(area) < 1e-9f) continue;
      const Vec3 q{x, 0, z};
      const float u = TriArea2XZ(q, b, d) / area, v = TriArea2XZ(a, q, d) / area;
      if (u < 0 || v < 0 || u + v > 1) continue;
      const float y = u * a.y + v * b.y + (1 - u - v) * d.y;
      if (!best || std::abs(y - near_y) < std::abs(*best - near_y)) best = y;
    }
  }
  return best;
}

// Detail meshes keep the terrain's heights: surface points sit on the terrain, off by the
// detail mesh's allowed error (a cell height) between its samples at most.
TEST(BakeTest, UndulatingTerrainKeepsItsHeights) {
  const SourceMesh terrain = ImportRecast("undulating.obj");
  const BakeSettings settings = DemoSettings();
  const std::unique_ptr<Baked> baked = Bake(terrain, settings);
  ASSERT_NE(baked, nullptr);
  EXPECT_GT(baked->map->info().bounds.max.y - baked->map->info().bounds.min.y, 5.0f);
  NavQuery query(baked->map);
  std::mt19937 rng(7);
  std::vector<float> errors;
  for (int i = 0; i < 150; ++i) {
    std::optional<SurfacePoint> p = testing::RandomOnMap(query, QueryFilter(), rng);
    ASSERT_TRUE(p.has_value());
    std::optional<float> truth = GeometryHeight(terrain, p->pos.x, p->pos.z, p->pos.y);
    ASSERT_TRUE(truth.has_value()) << p->pos.x << " " << p->pos.z;
    errors.push_back(std::abs(p->pos.y - *truth));
  }
  std::sort(errors.begin(), errors.end());
  EXPECT_LE(errors[errors.size() / 2], 0.5f * settings.cell_height);
  EXPECT_LE(errors.back(), 2 * settings.cell_height + 0.05f);
}

// A volumes file: a box of area 3 and a Not Walkable prism on the big floor of nav_test, and an
// off-mesh link between two floors.
constexpr char kVolumes[] = R"({
  "areas": [{"id": 3, "name": "Mud", "cost": 3.5}],
  "volumes": [
    {"name": "mud", "area": 3, "box": {"min": [-20, -5, -14], "max": [-10, 0, -4]}},
    {"name": "pit", "area": 1,
     "prism": {"points": [[0, -20], [10, -20], [10, -12], [0, -12]], "y_min": -5, "y_max": 0}}
  ],
  "off_mesh_links": [
    {"start": [18.25, -2.37, -7.0], "end": [6.05, -2.37, 3.33], "radius": 1.0, "area": 2,
     "bidirectional": false}
  ]
})";

std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = (std::filesystem::temp_directory_path() / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(BakeTest, VolumesChangeAreasAndLinksAppearInTheMap) {
  const std::string volumes = WriteTemp("waymesh-bake-volumes.json", kVolumes);
  absl::StatusOr<BakeResult> baked =
      BakeMap(SharedData("recast/nav_test.obj"), volumes, DemoSettings());
  ASSERT_TRUE(baked.ok()) << baked.status();
  EXPECT_EQ(baked->bake.volumes, 2u);
  absl::StatusOr<std::shared_ptr<const NavMap>> map =
      LoadMap(std::make_shared<const std::string>(baked->build.bytes));
  ASSERT_TRUE(map.ok()) << map.status();
  const MapInfo& info = (*map)->info();
  EXPECT_EQ(info.areas[3].name, "Mud");
  EXPECT_FLOAT_EQ(info.areas[3].cost, 3.5f);
  EXPECT_TRUE(info.areas[3].used);

  // Well inside the box: mud; well outside: walkable. Nothing inside the pit.
  const float margin = 1.0f;
  int mud = 0, inside_pit = 0;
  for (const TileView& t : (*map)->tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      const Vec3 c = Centroid(t, p);
      const bool in_box = c.x > -20 + margin && c.x < -10 - margin && c.z > -14 + margin &&
                          c.z < -4 - margin && c.y < 0;
      const bool off_box = c.x < -20 - margin || c.x > -10 + margin || c.z < -14 - margin ||
                           c.z > -4 + margin || c.y > 0.5f;
      if (in_box) {
        EXPECT_EQ(t.poly_area[p], 3) << c.x << " " << c.z;
        ++mud;
      }
      if (off_box) {
        EXPECT_EQ(t.poly_area[p], kWalkableArea) << c.x << " " << c.z;
      }
      inside_pit += c.x > 0.5f && c.x < 9.5f && c.z > -19.5f && c.z < -12.5f && c.y < 0;
    }
  }
  EXPECT_GT(mud, 0);
  EXPECT_EQ(inside_pit, 0);

  // The one-way link is in the map with its area and ends.
  ASSERT_EQ(info.off_mesh_link_count, 1u);
  int links = 0;
  for (const TileView& t : (*map)->tiles()) {
    for (const OffMeshLink& l : t.off_mesh_links) {
      ++links;
      EXPECT_EQ(l.area, 2);
      EXPECT_FALSE(l.bidirectional);
      EXPECT_LT(DistanceXZ(l.start, Vec3{18.25f, 0, -7.0f}), 1.0f);
      EXPECT_LT(DistanceXZ(l.end, Vec3{6.05f, 0, 3.33f}), 1.0f);
    }
  }
  EXPECT_EQ(links, 1);
}

TEST(BakeTest, OverlappingVolumesFollowUnityPrecedence) {
  absl::StatusOr<BakeVolumes> file = ParseBakeVolumes(R"({
    "areas": [{"id": 5, "name": "Five", "cost": 1}, {"id": 4, "name": "Four", "cost": 1}],
    "volumes": [
      {"area": 5, "box": {"min": [-30, -5, -30], "max": [30, 0, 30]}},
      {"area": 4, "box": {"min": [-30, -5, -30], "max": [30, 0, 30]}}
    ]})",
                                                      "precedence.json");
  ASSERT_TRUE(file.ok()) << file.status();
  const std::unique_ptr<Baked> baked = Bake(ImportRecast("nav_test.obj"), DemoSettings(), *file);
  ASSERT_NE(baked, nullptr);
  int five = 0, four = 0;
  for (uint8_t a : baked->mesh.poly_area) {
    five += a == 5;
    four += a == 4;
  }
  EXPECT_GT(five, 0);  // the higher id wins although it comes first
  EXPECT_EQ(four, 0);
}

TEST(BakeTest, MirroredGeometryBakesTheMirroredSurface) {
  const SourceMesh plain = ImportRecast("nav_test.obj");
  absl::StatusOr<BakeResult> mirrored = BakeMap(SharedData("recast/nav_test.obj"), "",
                                                DemoSettings(), {.import = {.mirror_x = true}});
  ASSERT_TRUE(mirrored.ok()) << mirrored.status();
  const std::unique_ptr<Baked> reference = Bake(plain, DemoSettings());
  ASSERT_NE(reference, nullptr);
  EXPECT_NEAR(mirrored->build.info.walkable_area, reference->map->info().walkable_area,
              0.03 * reference->map->info().walkable_area);
  EXPECT_NEAR(mirrored->build.info.bounds.max.x, -reference->map->info().bounds.min.x, 1.0f);
}

TEST(BakeVolumesTest, DefaultsAreUnitysAreas) {
  const BakeVolumes d = DefaultBakeVolumes();
  ASSERT_GE(d.areas.size(), 3u);
  EXPECT_EQ(d.areas[0]->name, "Walkable");
  EXPECT_EQ(d.areas[1]->name, "Not Walkable");
  EXPECT_EQ(d.areas[2]->name, "Jump");
  EXPECT_TRUE(d.volumes.empty());
  EXPECT_TRUE(d.links.empty());
}

TEST(BakeVolumesTest, ParsesBoxesPrismsLinksAndAreas) {
  absl::StatusOr<BakeVolumes> file = ParseBakeVolumes(kVolumes, "v.json");
  ASSERT_TRUE(file.ok()) << file.status();
  ASSERT_EQ(file->volumes.size(), 2u);
  EXPECT_FALSE(file->volumes[0].is_prism());
  EXPECT_EQ(file->volumes[0].area, 3);
  EXPECT_EQ(file->volumes[0].min, (Vec3{-20, -5, -14}));
  EXPECT_THAT(file->volumes[0].name, HasSubstr("mud"));
  EXPECT_TRUE(file->volumes[1].is_prism());
  EXPECT_EQ(file->volumes[1].outline.size(), 4u);
  EXPECT_EQ(file->volumes[1].min, (Vec3{0, -5, -20}));
  EXPECT_EQ(file->volumes[1].max, (Vec3{10, 0, -12}));
  ASSERT_EQ(file->links.size(), 1u);
  EXPECT_FALSE(file->links[0].bidirectional);
  EXPECT_FLOAT_EQ(file->links[0].radius, 1.0f);
  EXPECT_EQ(file->links[0].area, 2);
  EXPECT_EQ(file->areas[3]->name, "Mud");
  EXPECT_EQ(file->areas[0]->name, "Walkable");  // the defaults stay
}

TEST(BakeVolumesTest, BadFilesSayWhatAndWhere) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"volumes": [{"area": 0, "box": {"min": [0,0,0], "max": [1,1,1]}},)",
       "v.json:1:"},  // syntax error: line and column
      {R"({"volumez": []})", "v.json: has unknown key \"volumez\""},
      {R"({"volumes": [{"aera": 3, "box": {}}]})", "volumes[0] has unknown key \"aera\""},
      {R"({"volumes": [{"area": 9, "box": {"min": [0,0,0], "max": [1,1,1]}}]})",
       "volumes[0].area = 9 is not a declared area"},
      {R"({"areas": [{"id": 63, "name": "Top", "cost": 1}],
           "volumes": [{"area": 63, "box": {"min": [0,0,0], "max": [1,1,1]}}]})",
       "volumes[0].area = 63 cannot be baked"},
      {R"({"volumes": [{"area": 0}]})", "volumes[0] needs exactly one shape"},
      {R"({"volumes": [{"area": 0, "box": {"min": [2,0,0], "max": [1,1,1]}}]})",
       "volumes[0].box has min above max"},
      {R"({"volumes": [{"area": 0, "box": {"min": [0,0], "max": [1,1,1]}}]})",
       "volumes[0].box.min has 2 numbers, not 3"},
      {R"({"volumes": [{"area": 0, "prism": {"points": [[0,0],[2,0],[1,1],[2,2],[0,2]],
           "y_min": 0, "y_max": 1}}]})",
       "volumes[0].prism.points is not convex"},
      {R"({"volumes": [{"area": 0, "prism": {"points": [[0,0],[1,1],[2,2]],
           "y_min": 0, "y_max": 1}}]})",
       "volumes[0].prism.points encloses no area"},
      {R"({"volumes": [{"area": 0, "prism": {"points": [[0,0],[1,0],[0,1]],
           "y_min": 2, "y_max": 1}}]})",
       "volumes[0].prism has y_min above y_max"},
      {R"({"areas": [{"id": 3, "name": "A", "cost": 1}, {"id": 3, "name": "B", "cost": 1}]})",
       "areas[1].id = 3 is declared twice"},
      {R"({"areas": [{"id": 3, "name": "A", "cost": 0}]})", "areas[0].cost = 0 must be positive"},
      {R"({"off_mesh_links": [{"start": [0,0,0]}]})", "off_mesh_links[0].end is missing"},
      {R"({"off_mesh_links": [{"start": [0,0,0], "end": [1e9,0,0]}]})",
       "off_mesh_links[0].end[0] = 1000000000 is beyond the coordinate limit"},
      {R"({"off_mesh_links": [{"start": [0,0,0], "end": [1,0,0], "area": 7}]})",
       "off_mesh_links[0].area = 7 is not a declared area"},
      {R"([1, 2])", "v.json"},
  };
  for (const auto& [text, expected] : cases) {
    absl::StatusOr<BakeVolumes> file = ParseBakeVolumes(text, "v.json");
    ASSERT_FALSE(file.ok()) << text;
    EXPECT_THAT(std::string(file.status().message()), HasSubstr(expected)) << text;
  }
}

TEST(BakeSettingsTest, BadParametersNameTheParameter) {
  const std::vector<std::pair<void (*)(BakeSettings&), std::string>> cases = {
      {[](BakeSettings& s) { s.agent.voxel_size = 0; }, "voxel size"},
      {[](BakeSettings& s) { s.agent.voxel_size = NAN; }, "voxel size"},
      {[](BakeSettings& s) { s.agent.radius = -1; }, "agent radius"},
      {[](BakeSettings& s) { s.agent.height = 0; }, "agent height"},
      {[](BakeSettings& s) { s.agent.height = 0.3f, s.agent.step_height = 0.1f; }, "3 to 255"},
      {[](BakeSettings& s) { s.agent.max_slope_deg = 95; }, "max slope"},
      {[](BakeSettings& s) { s.agent.step_height = 3; }, "below the agent height"},
      {[](BakeSettings& s) { s.tile_size = 8; }, "tile size"},
      {[](BakeSettings& s) { s.min_region_area = -1; }, "min region area"},
      {[](BakeSettings& s) { s.cell_height = -0.1f; }, "cell height"},
      {[](BakeSettings& s) { s.agent.radius = 50; }, "Recast allows"},
  };
  EXPECT_TRUE(ValidateBakeSettings(DemoSettings()).ok());
  for (const auto& [change, expected] : cases) {
    BakeSettings s = DemoSettings();
    change(s);
    absl::Status status = ValidateBakeSettings(s);
    EXPECT_FALSE(status.ok()) << expected;
    EXPECT_THAT(std::string(status.message()), HasSubstr(expected));
  }
}

TEST(BakeSettingsTest, CellHeightDefaultsToHalfTheVoxel) {
  BakeSettings s;
  s.agent.voxel_size = 0.4f;
  EXPECT_FLOAT_EQ(EffectiveCellHeight(s), 0.2f);
  s.cell_height = 0.1f;
  EXPECT_FLOAT_EQ(EffectiveCellHeight(s), 0.1f);
}

TEST(BakeFileTest, BadGeometryFilesSayWhatAndWhere) {
  const std::string bad_obj = WriteTemp("waymesh-bake-bad.obj", "v 0 0 0\nv 1 0 0\nf 1 2 7\n");
  absl::StatusOr<BakeResult> r = BakeMap(bad_obj, "", DemoSettings());
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr(bad_obj + ":3"));

  absl::StatusOr<BakeResult> missing = BakeMap("/nonexistent/level.obj", "", DemoSettings());
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("/nonexistent/level.obj"));

  const std::string json = WriteTemp("waymesh-bake-level.json", "{}");
  absl::StatusOr<BakeResult> not_obj = BakeMap(json, "", DemoSettings());
  ASSERT_FALSE(not_obj.ok());
  EXPECT_THAT(std::string(not_obj.status().message()), HasSubstr("Wavefront OBJ"));

  // Only walls: nothing to walk on.
  const std::string walls =
      WriteTemp("waymesh-bake-walls.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n");
  absl::StatusOr<BakeResult> no_floor = BakeMap(walls, "", DemoSettings());
  ASSERT_FALSE(no_floor.ok());
  EXPECT_THAT(std::string(no_floor.status().message()), HasSubstr("walkable"));

  const std::string bad_volumes = WriteTemp("waymesh-bake-bad-volumes.json", R"({"volumes": 3})");
  absl::StatusOr<BakeResult> volumes =
      BakeMap(SharedData("recast/nav_test.obj"), bad_volumes, DemoSettings());
  ASSERT_FALSE(volumes.ok());
  EXPECT_THAT(std::string(volumes.status().message()), HasSubstr(bad_volumes + ": volumes"));
}

TEST(BakeFileTest, AbsurdWorldsAreRefusedNotAllocated) {
  // Two floor triangles 2 km apart with 1 cm voxels and 16-voxel tiles: 12 500² tiles.
  const std::string far = WriteTemp(
      "waymesh-bake-far.obj",
      "v 0 0 0\nv 0 0 1\nv 1 0 0\nv 2000 0 2000\nv 2000 0 2001\nv 2001 0 2000\nf 1 2 3\nf 4 5 6\n");
  BakeSettings s = DemoSettings(kMinBakeTileSize);
  s.agent.voxel_size = kMinBakeVoxelSize;
  s.cell_height = kMinBakeVoxelSize;
  s.agent.radius = 0.1f;
  s.agent.height = 0.5f;
  s.agent.step_height = 0.1f;
  absl::StatusOr<BakeResult> r = BakeMap(far, "", s);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("tiles"));
}

}  // namespace
}  // namespace waymesh::testing
