// The landmark table's lower bounds against published optimal path lengths: never (beyond the
// flood's accuracy) above the true distance, symmetric, and tight enough to guide A*; and on a
// map with cheap and dear areas, bounds of path cost under the map's own costs.

#include "waymesh/core/landmark_table.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "gtest/gtest.h"
#include "polyanya_data.h"
#include "support/demo_town.h"
#include "support/map_builder.h"
#include "support/query_points.h"
#include "support/test_data.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/demo_world/demo_world.h"

namespace waymesh {
namespace {

uint32_t Global(const NavMap& map, PolyIndex p) { return map.PolygonBases()[p.tile] + p.poly; }

// The bound towards point `g` from polygon `from` (see LandmarkTable::ForGoal).
float PointBound(const NavMap& map, const QueryFilter& filter, uint32_t from,
                 const SurfacePoint& g) {
  const TileView& t = map.tile(g.poly.tile());
  std::vector<uint32_t> neighbours;
  for (uint32_t i = t.poly_start[g.poly.poly()]; i < t.poly_start[g.poly.poly() + 1]; ++i) {
    const uint32_t nb = t.poly_neighbors[i];
    if (nb == kWall) {
      neighbours.push_back(LandmarkTable::kNoNeighbour);
    } else if (nb & kCrossTileBit) {
      neighbours.push_back(Global(map, t.cross_links[nb & ~kCrossTileBit]));
    } else {
      neighbours.push_back(Global(map, PolyIndex{g.poly.tile(), nb}));
    }
  }
  const LandmarkTable::Goal goal{Global(map, g.poly.index()), &t, g.poly.poly(), g.pos, neighbours};
  return map.search_tables()->landmarks.ForGoal(filter, from, goal).From(from);
}

TEST(LandmarkTableTest, BoundsNeverExceedTheOptimumAndAreTight) {
  auto map = testing::CachedMapFromFile(testing::SharedData("polyanya/meshes/aurora.mesh"),
                                        RepairOptions{.merge = false});
  ASSERT_TRUE(map.ok()) << map.status();
  const LandmarkTable& table = (*map)->search_tables()->landmarks;
  ASSERT_EQ(table.count(), LandmarkTable::kDefaultCount);
  NavQuery q(*map);
  const auto queries = testing::ReadExpectedFile(
      testing::SharedData("polyanya/expected/aurora_euclid_expected.csv"));
  double ratio_sum = 0, point_ratio_sum = 0;
  int n = 0, above = 0, point_above = 0;
  for (const auto& e : queries) {
    auto s = testing::Nearest(q, e.start, {0.5f, 1, 0.5f}, QueryFilter());
    auto g = testing::Nearest(q, e.goal, {0.5f, 1, 0.5f}, QueryFilter());
    ASSERT_TRUE(s && g);
    const uint32_t a = Global(**map, s->poly.index()), b = Global(**map, g->poly.index());
    const float bound = table.LowerBound(a, b);
    EXPECT_EQ(bound, table.LowerBound(b, a));
    // Floods measure taut paths through the corridors they settled: nearly always within a
    // fraction of a percent of the true distance, at worst like a path's worst case.
    EXPECT_LE(bound, e.length * 1.25 + 1e-3) << e.start.x << "," << e.start.z;
    above += bound > e.length * 1.005 + 1e-3;
    ratio_sum += e.length > 0 ? bound / e.length : 1.0;
    // Towards the goal point itself: at least as tight, and just as safe.
    const float point_bound = PointBound(**map, QueryFilter(), a, *g);
    EXPECT_GE(point_bound, bound);
    EXPECT_LE(point_bound, e.length * 1.25 + 1e-3) << e.start.x << "," << e.start.z;
    point_above += point_bound > e.length * 1.005 + 1e-3;
    point_ratio_sum += e.length > 0 ? point_bound / e.length : 1.0;
    ++n;
  }
  EXPECT_LT(above, n / 20) << "bounds above the optimum";
  EXPECT_LT(point_above, n / 20) << "point bounds above the optimum";
  EXPECT_EQ(table.LowerBound(0, 0), 0.0f);
  // Useful: on average the bound recovers most of the true distance.
  EXPECT_GT(ratio_sum / n, 0.6) << "mean bound / optimum";
  EXPECT_GT(point_ratio_sum / n, ratio_sum / n) << "mean point bound / optimum";
}

TEST(LandmarkTableTest, SmallMapsHaveNoTable) {
  auto map = testing::CachedMapFromFile(testing::SharedData("polyanya/meshes/arena.mesh"),
                                        RepairOptions{.merge = false});
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_TRUE((*map)->search_tables()->landmarks.empty());
  EXPECT_EQ((*map)->search_tables()->landmarks.LowerBound(0, 5), 0.0f);
  EXPECT_TRUE(LandmarkTable().empty());
}

TEST(LandmarkTableTest, FilterScaleComparesTheFilterWithTheCappedMapCosts) {
  const testing::DemoTown& town = testing::Town();
  const LandmarkTable& table = town.map->search_tables()->landmarks;
  ASSERT_FALSE(table.empty());
  const MapInfo& info = town.map->info();
  ASSERT_EQ(info.areas[kDemoAreaRoad].cost, 0.5f);
  ASSERT_GT(info.areas[kDemoAreaWater].cost, 1.0f);
  // The map's own costs and the all-ones filter both get the full bound.
  EXPECT_EQ(table.FilterScale(QueryFilter(info)), 1.0f);
  EXPECT_EQ(table.FilterScale(QueryFilter()), 1.0f);
  // Roads at a quarter instead of a half: every bound halves.
  QueryFilter cheap_roads(info);
  cheap_roads.SetAreaCost(kDemoAreaRoad, 0.25f);
  EXPECT_FLOAT_EQ(table.FilterScale(cheap_roads), 0.5f);
  // A disabled area does not count, however cheap.
  cheap_roads.SetAreaEnabled(kDemoAreaRoad, false);
  EXPECT_EQ(table.FilterScale(cheap_roads), 1.0f);
}

// Cost of walking the waypoint polyline under `filter`, by the area under each 0.2 m piece (a
// straight segment may pass above an arched bridge deck: the box reaches 4 m up and down).
double PolylineCost(NavQuery& q, const PathResult& path, const QueryFilter& filter) {
  constexpr float kPiece = 0.2f;
  double cost = 0;
  for (size_t i = 1; i < path.waypoints.size(); ++i) {
    const Vec3 a = path.waypoints[i - 1].pos, b = path.waypoints[i].pos;
    const float len = Length(b - a);
    const int pieces = std::max(1, int(std::ceil(len / kPiece)));
    for (int k = 0; k < pieces; ++k) {
      const Vec3 mid = Lerp(a, b, (k + 0.5f) / pieces);
      const auto at = testing::Nearest(q, mid, {0.5f, 4.0f, 0.5f}, filter);
      if (!at) return -1;
      const uint8_t area = q.map().tile(at->poly.tile()).poly_area[at->poly.poly()];
      cost += filter.Cost(area) * len / pieces;
    }
  }
  return cost;
}

// Calls fn(start, goal, path) for `count` complete paths of 5 m or more between random points
// under `filter`, found without the table (so bounds are checked against an independent
// search), leaving out paths over off-mesh links (a link's cost is not its length).
template <typename Fn>
void ForRandomPaths(const testing::DemoTown& town, const QueryFilter& filter, uint64_t seed,
                    int count, Fn&& fn) {
  NavQuery q(town.map, NavQueryOptions{.landmarks = false});
  std::mt19937_64 rng(seed);
  PathResult path;
  for (int n = 0; n < count;) {
    const auto s = testing::RandomOnMap(q, filter, rng), g = testing::RandomOnMap(q, filter, rng);
    ASSERT_TRUE(s && g);
    ASSERT_TRUE(q.FindPath(*s, *g, filter, PathOptions{}, &path).ok());
    if (path.status != QueryStatus::kComplete || path.length < 5) continue;
    const bool uses_link =
        std::any_of(path.waypoints.begin(), path.waypoints.end(),
                    [](const Waypoint& w) { return w.flags & kWaypointOffMeshLink; });
    if (uses_link) continue;
    fn(q, *s, *g, path);
    ++n;
  }
}

TEST(LandmarkTableTest, CostBoundsHoldAndAreTightUnderTheMapsCosts) {
  const testing::DemoTown& town = testing::Town();
  const LandmarkTable& table = town.map->search_tables()->landmarks;
  const QueryFilter filter(town.map->info());
  ASSERT_EQ(table.FilterScale(filter), 1.0f);
  double ratio_sum = 0;
  int n = 0, above = 0;
  ForRandomPaths(
      town, filter, 42, 150,
      [&](NavQuery& q, const SurfacePoint& s, const SurfacePoint& g, const PathResult& path) {
        const double cost = PolylineCost(q, path, filter);
        ASSERT_GT(cost, 0);
        const float bound =
            table.LowerBound(Global(*town.map, s.poly.index()), Global(*town.map, g.poly.index()));
        // As with distances (above): a flood's taut corridors may exceed the
        // optimum, rarely by several percent; sampling the cost errs by a piece per
        // area change.
        EXPECT_LE(bound, cost * 1.25 + 1.0)
            << s.pos.x << "," << s.pos.z << " -> " << g.pos.x << "," << g.pos.z;
        above += bound > cost * 1.005 + 1.0;
        ratio_sum += bound / cost;
        ++n;
      });
  EXPECT_LT(above, n / 20) << "bounds above the path cost";
  // Tight: a distance bound scaled by the cheapest cost (roads, 0.5) recovers at most half of
  // a path's cost on grass.
  EXPECT_GT(ratio_sum / n, 0.6) << "mean bound / path cost";
}

// The all-ones filter on a map with 0.5-cost roads: the reference-cost rows count road metres
// at half, so the query's bound comes from the walking-distance rows, towards the goal point.
TEST(LandmarkTableTest, GoalBoundsUseDistanceRowsWhenTheyBoundBetter) {
  const testing::DemoTown& town = testing::Town();
  const LandmarkTable& table = town.map->search_tables()->landmarks;
  ASSERT_TRUE(table.has_distance_rows());
  const QueryFilter every_area_at_one;
  double goal_sum = 0, cost_rows_sum = 0;
  int n = 0, above = 0;
  ForRandomPaths(
      town, every_area_at_one, 7, 150,
      [&](NavQuery&, const SurfacePoint& s, const SurfacePoint& g, const PathResult& path) {
        const uint32_t a = Global(*town.map, s.poly.index()), b = Global(*town.map, g.poly.index());
        const float bound = PointBound(*town.map, every_area_at_one, a, g);
        EXPECT_LE(bound, path.length * 1.25 + 1.0);
        above += bound > path.length * 1.005 + 1.0;
        goal_sum += bound / path.length;
        cost_rows_sum +=
            table.LowerBound(a, b) * table.FilterScale(every_area_at_one) / path.length;
        ++n;
      });
  EXPECT_LT(above, n / 20) << "bounds above the path length";
  EXPECT_GT(goal_sum / n, 0.85) << "mean bound / path length";
  EXPECT_GT(goal_sum / n, cost_rows_sum / n + 0.2) << "the reference-cost rows alone";
}

}  // namespace
}  // namespace waymesh
