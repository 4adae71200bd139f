// The plan twin (waymesh/core/plan_twin.h) and exact FindPath through it (twin/twin_path.h):
// the twin covers the same plan area with fewer convex polygons whose corners are map
// vertices, and exact answers through it are the map's own (lengths, statuses, published
// optima), with the corridor and waypoint polygons of the map.

#include "waymesh/core/plan_twin.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "hand_built_map.h"
#include "polyanya_data.h"
#include "support/demo_town.h"
#include "support/exact_pair_comparison.h"
#include "support/query_points.h"
#include "support/sanitizer.h"
#include "support/test_data.h"
#include "twin/plan_triangles.h"
#include "poly_geometry.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/obstacles/carve_map.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/format/map_structure.h"

namespace waymesh {
namespace {

double PlanArea(const TileView& t, uint32_t p) {
  double sum = 0;
  for (uint32_t i = 1; i + 1 < t.corner_count(p); ++i) {
    sum += 0.5 * TriArea2XZ(t.corner(p, 0), t.corner(p, i), t.corner(p, i + 1));
  }
  return sum;
}

bool IsVertexOf(const TileView& t, Vec3 v) {
  return std::find(t.vertices.begin(), t.vertices.end(), v) != t.vertices.end();
}

TEST(PlanTwinTest, DemoTownTwinCoversTheSamePlanAreaWithFewerConvexPolygons) {
  const testing::DemoTown& town = testing::Town(256, 7);
  const absl::StatusOr<PlanTwin> twin = BuildPlanTwin(*town.map);
  ASSERT_TRUE(twin.ok()) << twin.status();
  const NavMap& map = *town.map;
  const NavMap& plan = *twin->map;
  ASSERT_EQ(plan.tile_count(), map.tile_count());
  EXPECT_EQ(twin->report.polygons_before, map.info().polygon_count);
  // The town's fine ground carries heights on inner vertices: most of them go.
  EXPECT_LT(twin->report.polygons_after * 3, twin->report.polygons_before);
  EXPECT_GT(twin->report.vertices_removed, 0u);
  for (uint32_t ti = 0; ti < map.tile_count(); ++ti) {
    const TileView& a = map.tile(ti);
    const TileView& b = plan.tile(ti);
    double before = 0, after = 0;
    for (uint32_t p = 0; p < a.poly_count(); ++p) before += PlanArea(a, p);
    for (uint32_t p = 0; p < b.poly_count(); ++p) {
      after += PlanArea(b, p);
      const uint32_t n = b.corner_count(p);
      for (uint32_t i = 0; i < n; ++i) {
        const Vec3 c = b.corner(p, i);
        ASSERT_TRUE(IsVertexOf(a, c)) << "tile " << ti << " polygon " << p;
        // Convex (straight corners allowed), in map winding.
        EXPECT_GE(TriArea2XZ(b.corner(p, (i + n - 1) % n), c, b.corner(p, (i + 1) % n)), -1e-4f)
            << "tile " << ti << " polygon " << p << " corner " << i;
        // Every edge with a neighbour is that neighbour's edge back.
        const std::optional<PolyIndex> nb = b.across(b.poly_start[p] + i);
        if (!nb) continue;
        const TileView& o = plan.tile(nb->tile);
        bool back = false;
        for (uint32_t k = o.poly_start[nb->poly]; k < o.poly_start[nb->poly + 1]; ++k) {
          back |= o.across(k) == std::optional<PolyIndex>(PolyIndex{ti, p});
        }
        EXPECT_TRUE(back) << "tile " << ti << " polygon " << p << " edge " << i;
      }
    }
    EXPECT_NEAR(after, before, 1e-5 * before) << "tile " << ti;
  }
  // Every rule a map's file must meet (what `waymesh build --exact-twin` checks it against).
  EXPECT_TRUE(MapStructureStatus(plan).ok()) << MapStructureStatus(plan);
  // Every map polygon is covered by some twin polygon of its tile.
  const std::vector<uint32_t> bases = map.PolygonBases();
  for (uint32_t g = 0; g < bases.back(); ++g) {
    ASSERT_LT(twin->cover_start[g], twin->cover_start[g + 1]) << "polygon " << g;
  }
}

// A convex polygon with a straight corner (a T-junction split) fanned from a corner on that
// corner's line gives a sliver triangle, which merged into a face leaves a spike the map's rules
// refuse: fans start at a corner whose triangles all have area. Two squares side by side, split
// at M where they meet, each listed from a corner on the split line:
//   D C F
//     M
//   A B E
TEST(PlanTwinTest, StraightCornersLeaveNoSliverTriangles) {
  enum : uint32_t { A, B, E, D, C, F, M };
  const std::vector<Vec3> v = {{0, 0, 0}, {2, 0, 0}, {4, 0, 0}, {0, 0, 2},
                               {2, 0, 2}, {4, 0, 2}, {2, 0, 1}};
  const auto map = testing::BuildHandMap(
      v, {testing::HandPolygon{{B, M, C, D, A}}, testing::HandPolygon{{C, M, B, E, F}}});
  ASSERT_TRUE(MapStructureStatus(*map).ok());
  const twin::PlanTriangles triangles(map->tile(0));
  ASSERT_EQ(triangles.triangles().size(), 6u);
  for (const twin::PlanTriangle& t : triangles.triangles()) {
    EXPECT_GT(internal::Area2XZ(v[t.v[0]], v[t.v[1]], v[t.v[2]]), 0.5)
        << t.v[0] << " " << t.v[1] << " " << t.v[2];
  }
  const absl::StatusOr<PlanTwin> twin = BuildPlanTwin(*map);
  ASSERT_TRUE(twin.ok()) << twin.status();
  EXPECT_TRUE(MapStructureStatus(*twin->map).ok()) << MapStructureStatus(*twin->map);
}

// Through the twin (with the map's exact landmarks carried over), every random pair on the
// 256 m town gets the length and status of the map's own exact search, in fewer nodes.
TEST(PlanTwinTest, ExactPathsThroughTheTwinAreTheMapsOwn) {
  const testing::DemoTown& town = testing::Town(256, 7);
  const auto plain_map = WithSearchTables(town.map, {.exact_landmarks = true});
  const auto twin_map =
      WithSearchTables(town.map, {.exact_twin = true},
                       {.exact_landmarks = plain_map->search_tables()->exact_landmarks});
  ASSERT_NE(twin_map->search_tables()->exact_twin, nullptr);
  const NavMap& twin = *twin_map->search_tables()->exact_twin->map;
  EXPECT_FALSE(twin.search_tables()->exact_landmarks.empty());
  const QueryFilter filter = ExactReadyFilter(*town.map);
  NavQuery plain(plain_map), fast(twin_map);
  const int pairs = testing::kUnderSanitizer ? 15 : 150;
  const testing::ExactPairComparison c = testing::CompareExactPairs(plain, fast, filter, pairs, 5);
  EXPECT_GT(c.compared, pairs / 2);
  EXPECT_LT(c.fast_nodes * 2, c.plain_nodes);
}

// aurora as published (triangles): the twin keeps about half the polygons and every published
// optimum still comes out; aurora-merged is merged well already, so no twin is kept.
TEST(PlanTwinTest, PublishedOptimaHoldThroughTheTwin) {
  auto map = testing::CachedMapFromFile(testing::SharedData("polyanya/meshes/aurora.mesh"),
                                        RepairOptions{.merge = false});
  ASSERT_TRUE(map.ok()) << map.status();
  const auto with_twin = WithSearchTables(*map, {.exact_twin = true});
  ASSERT_NE(with_twin->search_tables()->exact_twin, nullptr);
  const auto queries = testing::ReadExpectedFile(
      testing::SharedData("polyanya/expected/aurora_euclid_expected.csv"));
  ASSERT_GT(queries.size(), 1000u);
  NavQuery q(with_twin);
  PathOptions exact;
  exact.mode = PathMode::kExact;
  PathResult r;
  const size_t stride = testing::kUnderSanitizer ? 20 : 2;
  for (size_t i = 0; i < queries.size(); i += stride) {
    const testing::ExpectedQuery& e = queries[i];
    ASSERT_TRUE(q.FindPath(e.start, e.goal, QueryFilter(), exact, &r).ok());
    ASSERT_EQ(r.status, QueryStatus::kComplete) << "query " << i;
    EXPECT_NEAR(r.length, e.length, 1e-5 * std::max(double(e.length), 1.0)) << "query " << i;
  }

  auto merged = testing::CachedMapFromFile(
      testing::SharedData("polyanya/meshes/aurora-merged.mesh"), RepairOptions{.merge = false});
  ASSERT_TRUE(merged.ok()) << merged.status();
  EXPECT_EQ(WithSearchTables(*merged, {.exact_twin = true})->search_tables()->exact_twin, nullptr);
}

// `map` carved with `obstacles`, searchable as the server serves it: with the search tables of
// the map it was cut from (obstacle_layers.cc).
std::shared_ptr<const NavMap> CarvedWithTables(const std::shared_ptr<const NavMap>& map,
                                               const std::vector<Obstacle>& obstacles) {
  const auto cut = CarveMap(map, obstacles);
  EXPECT_TRUE(cut.ok()) << cut.status();
  if (!cut.ok()) return nullptr;
  return std::make_shared<const NavMap>(**cut, map->shared_search_tables());
}

// A carved version searches the twin of the map it was cut from and walks each answer over its
// own polygons: a path a post blocks is searched on the version (its length goes round the
// post), paths elsewhere come from the twin (fewer nodes than the version's own search with the
// same tables but no twin); every length and status is the version's own.
TEST(PlanTwinTest, CarvedVersionsUseTheTwinAwayFromTheirObstacles) {
  const testing::DemoTown& town = testing::Town(256, 7);
  const auto with_twin = WithSearchTables(town.map, {.exact_twin = true});
  const auto without_twin = WithSearchTables(town.map);
  const QueryFilter filter = ExactReadyFilter(*town.map);
  PathOptions exact;
  exact.mode = PathMode::kExact;
  NavQuery q(with_twin);
  std::mt19937 rng(9);
  int blocked = 0, fewer_nodes = 0, compared = 0;
  for (int i = 0; i < 40 && blocked < (testing::kUnderSanitizer ? 2 : 6); ++i) {
    const auto s = testing::RandomOnMap(q, filter, rng), t = testing::RandomOnMap(q, filter, rng);
    ASSERT_TRUE(s.has_value() && t.has_value());
    PathResult open;
    ASSERT_TRUE(q.FindPath(s->pos, t->pos, filter, exact, &open).ok());
    if (open.status != QueryStatus::kComplete) continue;
    // A post on the middle of the first leg.
    const Vec3 a = open.waypoints[0].pos, b = open.waypoints[1].pos;
    if (DistanceXZ(a, b) < 8) continue;
    const std::vector<Obstacle> post{{"post", BoxShape{(a + b) * 0.5f, {0.3f, 3, 0.3f}}}};
    NavQuery on_twin(CarvedWithTables(with_twin, post)),
        on_map(CarvedWithTables(without_twin, post));
    PathResult r1, r2;
    ASSERT_TRUE(on_twin.FindPath(s->pos, t->pos, filter, exact, &r1).ok());
    ASSERT_TRUE(on_map.FindPath(s->pos, t->pos, filter, exact, &r2).ok());
    ASSERT_EQ(r1.status, r2.status) << i;
    EXPECT_NEAR(r1.length, r2.length, 1e-6 * std::max(1.0, r2.length)) << i;
    EXPECT_GT(r1.length, open.length + 1e-4) << i;  // round the post
    ++blocked;
    // Pairs elsewhere on the same version.
    for (int k = 0; k < 3; ++k) {
      const auto u = testing::RandomOnMap(q, filter, rng), v = testing::RandomOnMap(q, filter, rng);
      ASSERT_TRUE(u.has_value() && v.has_value());
      PathResult f1, f2;
      ASSERT_TRUE(on_twin.FindPath(u->pos, v->pos, filter, exact, &f1).ok());
      ASSERT_TRUE(on_map.FindPath(u->pos, v->pos, filter, exact, &f2).ok());
      ASSERT_EQ(f1.status, f2.status) << i << " " << k;
      if (f2.status != QueryStatus::kComplete) continue;
      EXPECT_NEAR(f1.length, f2.length, 1e-6 * std::max(1.0, f2.length)) << i << " " << k;
      ++compared;
      fewer_nodes += f1.nodes_expanded < f2.nodes_expanded;
    }
  }
  EXPECT_GT(blocked, 0);
  EXPECT_GT(fewer_nodes, compared / 2);
}

// An area obstacle may give a filter new surface (here a patch of an area the filter refuses
// made walkable): the twin of the map before it would then miss the shorter way, so such a
// version is searched on its own polygons. A 6 x 3 grid of 1 m cells whose two middle cells
// are area 5, refused; the obstacle makes them area 0.
TEST(PlanTwinTest, VersionsWhoseObstaclesAddSurfaceAreSearchedWithoutTheTwin) {
  auto [vertices, polys] = testing::GridPolygons(6, 3, 1.0f);
  for (testing::HandPolygon& p : polys) {
    const Vec3 c = vertices[p.verts[0]];
    if (c.z == 1 && (c.x == 2 || c.x == 3)) p.area = 5;
  }
  const auto map = WithSearchTables(testing::BuildHandMap(vertices, polys), {.exact_twin = true});
  ASSERT_NE(map->search_tables()->exact_twin, nullptr);
  QueryFilter filter;
  filter.set_area_mask(~(uint64_t{1} << 5));
  PathOptions exact;
  exact.mode = PathMode::kExact;
  const Vec3 from{0.5f, 0, 1.5f}, to{5.5f, 0, 1.5f};
  PathResult around;
  ASSERT_TRUE(NavQuery(map).FindPath(from, to, filter, exact, &around).ok());
  ASSERT_EQ(around.status, QueryStatus::kComplete);
  EXPECT_GT(around.length, 5.1);  // round the refused cells

  Obstacle paving{"paving", PrismShape{{{2, 1}, {4, 1}, {4, 2}, {2, 2}}, -1, 1}};
  paving.effect = ObstacleEffect::kArea;
  paving.area = 0;
  ASSERT_TRUE(CanShareSearchTables(*map, std::vector<Obstacle>{paving}));
  PathResult straight;
  ASSERT_TRUE(NavQuery(CarvedWithTables(map, {paving})).FindPath(from, to, filter, exact, &straight)
                  .ok());
  ASSERT_EQ(straight.status, QueryStatus::kComplete);
  EXPECT_NEAR(straight.length, 5.0, 1e-5);
}

}  // namespace
}  // namespace waymesh
