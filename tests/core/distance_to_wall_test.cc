// FindDistanceToWall against brute force: the nearest wall edge among the polygons reachable
// from the centre without leaving the search disc (disc_oracle.h), on real maps.

#include <cmath>
#include <random>
#include <string>

#include "disc_oracle.h"
#include "gtest/gtest.h"
#include "hand_built_map.h"
#include "support/demo_town.h"
#include "support/map_builder.h"
#include "support/query_points.h"
#include "support/test_data.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/demo_world/demo_world.h"

namespace waymesh {
namespace {

using testing::DiscOracle;

// Distances are compared in metres to this.
constexpr double kWallEps = 1e-3;

DiscOracle::Key KeyOf(PolyRef r) { return {r.tile(), r.poly()}; }

// What every answer must satisfy whatever the map: the hit is on a wall of a polygon reachable
// within the radius, at the reported distance, with a normal towards the centre.
void ExpectConsistent(NavQuery& q, const DiscOracle& oracle, const SurfacePoint& c, float radius,
                      const WallDistance& w, int i) {
  ASSERT_EQ(w.status, QueryStatus::kComplete) << i;
  EXPECT_EQ(w.center.poly, c.poly) << i;
  if (!w.found) {
    EXPECT_EQ(w.distance, radius) << i;
    EXPECT_FALSE(w.wall_poly.valid()) << i;
    return;
  }
  EXPECT_LE(w.distance, radius) << i;
  EXPECT_NEAR(DistanceXZ(w.hit_point, c.pos), w.distance, kWallEps) << i;
  bool ambiguous;
  const auto reach = oracle.Reachable(KeyOf(c.poly), c.pos, radius, &ambiguous);
  EXPECT_TRUE(ambiguous || reach.contains(KeyOf(w.wall_poly))) << i << ": wall polygon unreachable";
  // On a wall edge of its polygon, at the surface height there.
  EXPECT_LT(oracle.NearestWallOf(KeyOf(w.wall_poly), w.hit_point), kWallEps) << i;
  auto on = q.ClosestPointOnPoly(w.wall_poly, w.hit_point);
  ASSERT_TRUE(on.ok()) << on.status();
  EXPECT_NEAR(on->y, w.hit_point.y, kWallEps) << i;
  EXPECT_EQ(w.hit_normal.y, 0.0f) << i;
  EXPECT_NEAR(std::hypot(w.hit_normal.x, w.hit_normal.z), 1.0, 1e-4) << i;
  if (w.distance > kWallEps) {
    const float towards =
        w.hit_normal.x * (c.pos.x - w.hit_point.x) + w.hit_normal.z * (c.pos.z - w.hit_point.z);
    EXPECT_NEAR(towards, w.distance, kWallEps) << i << ": normal does not face the centre";
  }
}

struct WallCounts {
  int found = 0, not_found = 0, differ = 0;
};

// Random centres and radii on `map`. On a single-floor map the answer is exactly the nearest
// wall of the polygons reachable within the radius. Where floors overlap in plan view, a wall
// of another floor can lie closer in plan view than the portals that lead to it, and the
// search (as Detour's) no longer enters portals beyond the nearest wall found: the answer is
// then a wall reachable within the radius that no polygon reachable through portals closer
// than it beats.
WallCounts CompareWallsWithBruteForce(const std::shared_ptr<const NavMap>& map,
                                      const QueryFilter& filter, float max_radius,
                                      bool single_floor, int draws, uint64_t seed) {
  NavQuery q(map);
  const DiscOracle oracle(*map, filter);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> radius_of(0.2f, max_radius);
  WallDistance w;
  WallCounts counts;
  for (int i = 0; i < draws; ++i) {
    const auto c = testing::RandomOnMap(q, filter, rng);
    EXPECT_TRUE(c);
    if (!c) return counts;
    const float r = radius_of(rng);
    EXPECT_TRUE(q.FindDistanceToWall(*c, r, filter, &w).ok());
    ExpectConsistent(q, oracle, *c, r, w, i);
    bool ambiguous;
    const auto reach = oracle.Reachable(KeyOf(c->poly), c->pos, r, &ambiguous);
    const double brute = oracle.NearestWall(reach, c->pos);
    if (ambiguous || std::fabs(brute - r) < kWallEps) continue;
    if (brute > r) {
      EXPECT_FALSE(w.found) << i << ": a wall at " << w.distance << " beyond nothing";
      ++counts.not_found;
      continue;
    }
    EXPECT_TRUE(w.found) << i << ": missed the wall at " << brute << " within " << r;
    ++counts.found;
    if (single_floor) {
      EXPECT_NEAR(w.distance, brute, kWallEps) << i;
      continue;
    }
    EXPECT_GE(w.distance, brute - kWallEps) << i;
    const auto closer = oracle.Reachable(KeyOf(c->poly), c->pos, w.distance - kWallEps, &ambiguous);
    EXPECT_GE(oracle.NearestWall(closer, c->pos), w.distance - kWallEps) << i;
    counts.differ += std::fabs(w.distance - brute) > kWallEps;
  }
  return counts;
}

TEST(DistanceToWallTest, EqualsTheNearestReachableWallOnSingleFloorMaps) {
  for (const char* rel : {"polyanya/meshes/aurora-merged.mesh", "polyanya/meshes/arena.mesh"}) {
    auto map = testing::CachedMapFromFile(testing::SharedData(rel), RepairOptions{.merge = false});
    ASSERT_TRUE(map.ok()) << map.status();
    const WallCounts n = CompareWallsWithBruteForce(*map, QueryFilter(), 12, true, 1500, 41);
    EXPECT_GT(n.found, 500) << rel;
    EXPECT_GT(n.not_found, 20) << rel;
  }
}

TEST(DistanceToWallTest, MultiFloorMapsAndFilters) {
  const testing::DemoTown& town = testing::Town();
  auto unity = testing::CachedMapFromFile(testing::SharedData("unity/1100.navmesh"));
  ASSERT_TRUE(unity.ok()) << unity.status();
  const QueryFilter costs(town.map->info());
  QueryFilter dry(town.map->info());
  dry.SetAreaEnabled(kDemoAreaWater, false);
  WallCounts all;
  for (const auto& [map, filter] :
       {std::pair{town.map, costs}, std::pair{town.map, dry}, std::pair{*unity, QueryFilter()}}) {
    const WallCounts n = CompareWallsWithBruteForce(map, filter, 20, false, 1000, 42);
    EXPECT_GT(n.found, 300);
    all.differ += n.differ;
  }
  // Walls over or under the centre that the nearest wall hides are the exception.
  EXPECT_LT(all.differ, 30);
}

TEST(DistanceToWallTest, RejectedNeighboursAreWalls) {
  const testing::DemoTown& town = testing::Town();
  NavQuery q(town.map);
  const QueryFilter all(town.map->info());
  QueryFilter dry(town.map->info());
  dry.SetAreaEnabled(kDemoAreaWater, false);
  std::mt19937_64 rng(43);
  WallDistance a, b;
  int closer = 0;
  for (int i = 0; i < 2000; ++i) {
    const auto c = testing::RandomOnMap(q, dry, rng);
    ASSERT_TRUE(c);
    ASSERT_TRUE(q.FindDistanceToWall(*c, 30, all, &a).ok());
    ASSERT_TRUE(q.FindDistanceToWall(*c, 30, dry, &b).ok());
    // Rejecting polygons only adds walls.
    EXPECT_LE(b.distance, a.distance + kWallEps) << i;
    closer += b.distance < a.distance - kWallEps;
  }
  EXPECT_GT(closer, 10) << "the water's edge was never the nearest wall";
}

// 4 x 4 grid of 1 m cells from (0, 0) to (4, 4): walls are the outer square.
std::shared_ptr<const NavMap> SquareRoom() {
  auto [v, p] = testing::GridPolygons(4, 4, 1.0f);
  return testing::BuildHandMap(v, p);
}

TEST(DistanceToWallTest, ExactAnswersInASquare) {
  NavQuery q(SquareRoom());
  WallDistance w;
  ASSERT_TRUE(q.FindDistanceToWall({1.5f, 0, 1.2f}, 5, QueryFilter(), {1, 1, 1}, &w).ok());
  ASSERT_TRUE(w.found);
  EXPECT_NEAR(w.distance, 1.2f, 1e-6);
  EXPECT_NEAR(w.hit_point.x, 1.5f, 1e-6);
  EXPECT_NEAR(w.hit_point.z, 0.0f, 1e-6);
  EXPECT_NEAR(w.hit_normal.z, 1.0f, 1e-6);
  // Nothing within the radius.
  ASSERT_TRUE(q.FindDistanceToWall({2, 0, 2}, 1.5f, QueryFilter(), {1, 1, 1}, &w).ok());
  EXPECT_FALSE(w.found);
  EXPECT_EQ(w.distance, 1.5f);
  EXPECT_EQ(w.hit_normal, Vec3{});
  // On the wall: distance 0, the wall's inward normal.
  ASSERT_TRUE(q.FindDistanceToWall({0, 0, 2.5f}, 1, QueryFilter(), {1, 1, 1}, &w).ok());
  ASSERT_TRUE(w.found);
  EXPECT_NEAR(w.distance, 0.0f, 1e-6);
  EXPECT_NEAR(w.hit_normal.x, 1.0f, 1e-6);
  // Off the mesh: a result, not an error.
  ASSERT_TRUE(q.FindDistanceToWall({50, 0, 50}, 1, QueryFilter(), {1, 1, 1}, &w).ok());
  EXPECT_EQ(w.status, QueryStatus::kStartOffMesh);
  EXPECT_FALSE(w.found);
}

}  // namespace
}  // namespace waymesh
