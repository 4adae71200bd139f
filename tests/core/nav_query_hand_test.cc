// Queries on small hand-built maps whose answers are known exactly.

#include <cmath>
#include <limits>
#include <optional>
#include <random>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "hand_built_map.h"
#include "support/query_points.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {
namespace {

using testing::BuildHandMap;
using testing::GridPolygons;
using testing::HandLink;
using testing::HandPolygon;

constexpr float kEps = 1e-4f;

std::shared_ptr<const NavMap> Grid(int nx, int nz, const std::vector<int>& holes = {}) {
  auto [v, p] = GridPolygons(nx, nz, 1.0f, 0.0f, holes);
  return BuildHandMap(v, p);
}

// 10 x 10 grid with a wall of holes in column 5 from z = 0 to 8: the only way from the left half
// to the right half is the gap at z = 9.
std::shared_ptr<const NavMap> WallMap() {
  std::vector<int> holes;
  for (int z = 0; z <= 8; ++z) holes.push_back(z * 10 + 5);
  return Grid(10, 10, holes);
}

double Dist2(float ax, float az, float bx, float bz) { return std::hypot(ax - bx, az - bz); }

TEST(NavQueryHandTest, StraightPathAcrossOpenGrid) {
  NavQuery q(Grid(10, 10));
  PathResult r;
  ASSERT_TRUE(q.FindPath({0.5f, 0, 0.5f}, {9.5f, 0, 9.5f}, QueryFilter(), {}, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kComplete);
  ASSERT_EQ(r.waypoints.size(), 2u);
  EXPECT_NEAR(r.length, 9 * std::sqrt(2.0), 1e-4);
  EXPECT_EQ(r.waypoints.front().flags & kWaypointStart, kWaypointStart);
  EXPECT_EQ(r.waypoints.back().flags & kWaypointEnd, kWaypointEnd);
  EXPECT_EQ(r.corridor.front(), r.start.poly);
  EXPECT_EQ(r.corridor.back(), r.end.poly);
}

TEST(NavQueryHandTest, PathBendsAroundWallCorners) {
  NavQuery q(WallMap());
  PathResult r;
  ASSERT_TRUE(q.FindPath({1, 0, 1}, {9, 0, 1}, QueryFilter(), {}, &r).ok());
  ASSERT_EQ(r.status, QueryStatus::kComplete);
  const double expected = Dist2(1, 1, 5, 9) + 1 + Dist2(6, 9, 9, 1);
  EXPECT_NEAR(r.length, expected, 1e-4);
  ASSERT_EQ(r.waypoints.size(), 4u);
  EXPECT_NEAR(r.waypoints[1].pos.x, 5, kEps);
  EXPECT_NEAR(r.waypoints[1].pos.z, 9, kEps);
  EXPECT_NEAR(r.waypoints[2].pos.x, 6, kEps);
  EXPECT_NEAR(r.waypoints[2].pos.z, 9, kEps);
}

TEST(NavQueryHandTest, ClearanceKeepsDistanceFromWallCorners) {
  NavQuery q(WallMap());
  PathResult r;
  PathOptions options;
  options.clearance = 0.3f;
  ASSERT_TRUE(q.FindPath({1, 0, 1}, {9, 0, 1}, QueryFilter(), options, &r).ok());
  ASSERT_EQ(r.status, QueryStatus::kComplete);
  for (size_t i = 1; i + 1 < r.waypoints.size(); ++i) {
    const Vec3 p = r.waypoints[i].pos;
    EXPECT_GE(Dist2(p.x, p.z, 5, 9), 0.3 - 1e-4) << i;
    EXPECT_GE(Dist2(p.x, p.z, 6, 9), 0.3 - 1e-4) << i;
    // Still on the mesh: inside the gap row or the open halves.
    EXPECT_TRUE(p.z >= 9 || p.x <= 5 || p.x >= 6) << i;
  }
  EXPECT_GT(r.length, Dist2(1, 1, 5, 9) + 1 + Dist2(6, 9, 9, 1));
}

TEST(NavQueryHandTest, StartAndGoalInOnePolygon) {
  NavQuery q(Grid(2, 2));
  PathResult r;
  ASSERT_TRUE(q.FindPath({0.2f, 0, 0.2f}, {0.8f, 0, 0.7f}, QueryFilter(), {}, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kComplete);
  EXPECT_EQ(r.corridor.size(), 1u);
  ASSERT_EQ(r.waypoints.size(), 2u);
  EXPECT_NEAR(r.length, Dist2(0.2f, 0.2f, 0.8f, 0.7f), 1e-5);
}

TEST(NavQueryHandTest, SamePointGivesOneWaypoint) {
  NavQuery q(Grid(2, 2));
  PathResult r;
  ASSERT_TRUE(q.FindPath({0.5f, 0, 0.5f}, {0.5f, 0, 0.5f}, QueryFilter(), {}, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kComplete);
  ASSERT_EQ(r.waypoints.size(), 1u);
  EXPECT_EQ(r.waypoints[0].flags, kWaypointStart | kWaypointEnd);
  EXPECT_EQ(r.length, 0);
}

std::shared_ptr<const NavMap> TwoIslands(bool linked) {
  // Two 2 x 2 quads 10 m apart.
  std::vector<Vec3> v{{0, 0, 0},  {2, 0, 0},  {2, 0, 2},  {0, 0, 2},
                      {12, 0, 0}, {14, 0, 0}, {14, 0, 2}, {12, 0, 2}};
  std::vector<HandPolygon> p{{{0, 1, 2, 3}}, {{4, 5, 6, 7}}};
  std::vector<HandLink> links;
  if (linked) links.push_back({{1.9f, 0, 1}, {12.1f, 0, 1}, 0, 1, 15.0f});
  return BuildHandMap(v, p, links);
}

TEST(NavQueryHandTest, DifferentIslandGroupsAnswerNoPathWithoutSearching) {
  NavQuery q(TwoIslands(false));
  PathResult r;
  ASSERT_TRUE(q.FindPath({1, 0, 1}, {13, 0, 1}, QueryFilter(), {}, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kNoPath);
  EXPECT_EQ(r.nodes_expanded, 0u);
  EXPECT_TRUE(r.waypoints.empty());
  EXPECT_TRUE(r.corridor.empty());
}

TEST(NavQueryHandTest, OffMeshLinkJoinsIslands) {
  NavQuery q(TwoIslands(true));
  PathResult r;
  ASSERT_TRUE(q.FindPath({1, 0, 1}, {13, 0, 1}, QueryFilter(), {}, &r).ok());
  ASSERT_EQ(r.status, QueryStatus::kComplete);
  ASSERT_EQ(r.waypoints.size(), 4u);
  EXPECT_EQ(r.waypoints[1].flags & kWaypointOffMeshLink, kWaypointOffMeshLink);
  EXPECT_NEAR(r.waypoints[1].pos.x, 1.9f, kEps);
  EXPECT_NEAR(r.waypoints[2].pos.x, 12.1f, kEps);
  EXPECT_EQ(r.corridor.size(), 2u);
  EXPECT_NEAR(r.length, 0.9 + 10.2 + 0.9, 1e-4);
}

// 5 x 5 grid; cells (1..3, 2) form an area-3 strip between start and goal.
std::shared_ptr<const NavMap> StripMap(bool full_width) {
  auto [v, p] = GridPolygons(5, 5, 1.0f);
  for (int x = full_width ? 0 : 1; x <= (full_width ? 4 : 3); ++x) p[2 * 5 + x].area = 3;
  return BuildHandMap(v, p);
}

bool CorridorUsesArea(const NavQuery& q, const PathResult& r, uint8_t area) {
  for (PolyRef ref : r.corridor) {
    if (q.map().tile(ref.tile()).poly_area[ref.poly()] == area) return true;
  }
  return false;
}

TEST(NavQueryHandTest, ExpensiveAreaIsAvoidedAndCheapOneIsUsed) {
  NavQuery q(StripMap(false));
  PathResult r;
  QueryFilter filter;
  ASSERT_TRUE(q.FindPath({2.5f, 0, 0.5f}, {2.5f, 0, 4.5f}, filter, {}, &r).ok());
  EXPECT_TRUE(CorridorUsesArea(q, r, 3));
  EXPECT_NEAR(r.length, 4.0, 1e-5);
  filter.SetAreaCost(3, 100.0f);
  ASSERT_TRUE(q.FindPath({2.5f, 0, 0.5f}, {2.5f, 0, 4.5f}, filter, {}, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kComplete);
  EXPECT_FALSE(CorridorUsesArea(q, r, 3));
  // Costs below 1 elsewhere keep the heuristic admissible: the cheap strip is still preferred.
  filter.SetAreaCost(3, 0.1f);
  ASSERT_TRUE(q.FindPath({2.5f, 0, 0.5f}, {2.5f, 0, 4.5f}, filter, {}, &r).ok());
  EXPECT_TRUE(CorridorUsesArea(q, r, 3));
}

TEST(NavQueryHandTest, AreaMaskAvoidsAreaAndUnreachableGoalGivesNoPathOrPartial) {
  QueryFilter filter;
  filter.SetAreaEnabled(3, false);
  {
    NavQuery q(StripMap(false));
    PathResult r;
    ASSERT_TRUE(q.FindPath({2.5f, 0, 0.5f}, {2.5f, 0, 4.5f}, filter, {}, &r).ok());
    EXPECT_EQ(r.status, QueryStatus::kComplete);
    EXPECT_FALSE(CorridorUsesArea(q, r, 3));
  }
  NavQuery q(StripMap(true));
  PathResult r;
  ASSERT_TRUE(q.FindPath({2.5f, 0, 0.5f}, {2.5f, 0, 4.5f}, filter, {}, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kNoPath);
  EXPECT_TRUE(r.waypoints.empty());
  EXPECT_FALSE(r.node_limit);
  // Asked for, the best effort: a path to the reachable point closest to the goal.
  PathOptions partial;
  partial.allow_partial = true;
  ASSERT_TRUE(q.FindPath({2.5f, 0, 0.5f}, {2.5f, 0, 4.5f}, filter, partial, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kPartial);
  EXPECT_FALSE(r.node_limit);
  ASSERT_FALSE(r.waypoints.empty());
  EXPECT_NEAR(r.waypoints.back().pos.x, 2.5f, kEps);
  EXPECT_NEAR(r.waypoints.back().pos.z, 2.0f, kEps);
  EXPECT_FALSE(CorridorUsesArea(q, r, 3));
}

TEST(NavQueryHandTest, AreaCrossingWaypoints) {
  NavQuery q(StripMap(false));
  PathResult r;
  PathOptions options;
  options.area_crossings = true;
  ASSERT_TRUE(q.FindPath({2.5f, 0, 0.5f}, {2.5f, 0, 4.5f}, QueryFilter(), options, &r).ok());
  ASSERT_EQ(r.waypoints.size(), 4u);
  EXPECT_EQ(r.waypoints[1].flags, kWaypointAreaChange);
  EXPECT_NEAR(r.waypoints[1].pos.z, 2.0f, kEps);
  EXPECT_EQ(r.waypoints[1].area, 3);
  EXPECT_EQ(r.waypoints[2].flags, kWaypointAreaChange);
  EXPECT_NEAR(r.waypoints[2].pos.z, 3.0f, kEps);
  EXPECT_EQ(r.waypoints[2].area, 0);
  EXPECT_NEAR(r.length, 4.0, 1e-5);
}

TEST(NavQueryHandTest, NodeLimitGivesPartialTowardsGoal) {
  // The wall hides the goal, so the search runs (a goal in sight needs no nodes).
  NavQuery q(WallMap());
  PathResult r;
  PathOptions options;
  options.max_nodes = 5;
  ASSERT_TRUE(q.FindPath({0.5f, 0, 0.5f}, {9.5f, 0, 0.5f}, QueryFilter(), options, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kPartial);
  EXPECT_LE(r.corridor.size(), 5u);
  EXPECT_GE(r.corridor.size(), 2u);
}

TEST(NavQueryHandTest, GoalInSightIsAnsweredWithoutSearching) {
  NavQuery q(Grid(10, 10));
  PathResult r;
  PathOptions options;
  options.max_nodes = 1;  // no search needed, so no node limit can cut the path short
  ASSERT_TRUE(q.FindPath({0.5f, 0, 0.5f}, {9.5f, 0, 7.5f}, QueryFilter(), options, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kComplete);
  EXPECT_EQ(r.nodes_expanded, 0u);
  EXPECT_FALSE(r.node_limit);
  ASSERT_EQ(r.waypoints.size(), 2u);
  EXPECT_NEAR(r.length, Dist2(0.5f, 0.5f, 9.5f, 7.5f), 1e-4);
  // The corridor is every cell the segment crosses, each one next to the one before (it
  // passes exactly through the grid vertex (5, 4)).
  ASSERT_GE(r.corridor.size(), 16u);
  EXPECT_EQ(r.corridor.front(), r.start.poly);
  EXPECT_EQ(r.corridor.back(), r.end.poly);
  const TileView& t = q.map().tile(0);
  for (size_t k = 1; k < r.corridor.size(); ++k) {
    bool adjacent = false;
    const uint32_t p = r.corridor[k - 1].poly();
    for (uint32_t c = t.poly_start[p]; c < t.poly_start[p + 1]; ++c) {
      const std::optional<PolyIndex> nb = t.across(c);
      adjacent |= nb && *nb == r.corridor[k].index();
    }
    EXPECT_TRUE(adjacent) << "corridor step " << k;
  }
}

TEST(NavQueryHandTest, GoalInSightOverDearerGroundIsSearchedFor) {
  // The straight line crosses the area-3 strip; at cost 100 walking round it is cheaper.
  NavQuery q(StripMap(false));
  QueryFilter filter;
  filter.SetAreaCost(3, 100.0f);
  PathResult r;
  ASSERT_TRUE(q.FindPath({2.5f, 0, 0.5f}, {2.5f, 0, 4.5f}, filter, {}, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kComplete);
  EXPECT_GT(r.nodes_expanded, 0u);
  EXPECT_FALSE(CorridorUsesArea(q, r, 3));
  EXPECT_GT(r.length, 4.5);
}

TEST(NavQueryHandTest, CheaperOffMeshLinkBeatsTheGoalInSight) {
  // A 10 x 1 strip with a link from the first cell to the last costing 2, against 9 m walking.
  auto [v, p] = GridPolygons(10, 1, 1.0f);
  const auto map = BuildHandMap(v, p, {HandLink{{0.5f, 0, 0.5f}, {9.5f, 0, 0.5f}, 0, 9, 2.0f}});
  NavQuery q(map);
  PathResult r;
  ASSERT_TRUE(q.FindPath({0.5f, 0, 0.5f}, {9.5f, 0, 0.5f}, QueryFilter(), {}, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kComplete);
  EXPECT_GT(r.nodes_expanded, 0u);
  bool took_link = false;
  for (const Waypoint& w : r.waypoints) took_link |= (w.flags & kWaypointOffMeshLink) != 0;
  EXPECT_TRUE(took_link);
}

// Two floors over one footprint joined by ramps round the east side: a ground floor
// x 0..4, z 0..4 at y = 0; an upper floor x 0..4, z 2..4 at y = 3 above its north half;
// ramp 1 (z 0..2) climbs from the ground floor to a landing at x 8..10, y = 1.5; ramp 2
// (z 2..4) climbs on from the landing to the upper floor.
std::shared_ptr<const NavMap> StackedFloorsMap() {
  std::vector<Vec3> v{
      // 0-5: ground floor
      {0, 0, 0},
      {4, 0, 0},
      {4, 0, 2},
      {0, 0, 2},
      {4, 0, 4},
      {0, 0, 4},
      // 6-10: landing
      {8, 1.5f, 0},
      {8, 1.5f, 2},
      {8, 1.5f, 4},
      {10, 1.5f, 0},
      {10, 1.5f, 4},
      // 11-14: upper floor
      {0, 3, 2},
      {4, 3, 2},
      {4, 3, 4},
      {0, 3, 4},
  };
  return BuildHandMap(v, {
                             {{0, 1, 2, 3}},      // ground south
                             {{3, 2, 4, 5}},      // ground north
                             {{1, 6, 7, 2}},      // ramp 1
                             {{6, 9, 10, 8, 7}},  // landing
                             {{12, 7, 8, 13}},    // ramp 2
                             {{11, 12, 13, 14}},  // upper floor
                         });
}

TEST(NavQueryHandTest, GoalOnTheFloorAboveIsNotInSight) {
  NavQuery q(StackedFloorsMap());
  PathResult r;
  // In plan view the segment lies inside the ground floor's north half, under the goal.
  ASSERT_TRUE(q.FindPath({1, 0, 3}, {3, 3, 3}, QueryFilter(), {}, &r).ok());
  ASSERT_EQ(r.status, QueryStatus::kComplete);
  EXPECT_EQ(r.end.poly.poly(), 5u);
  EXPECT_GT(r.nodes_expanded, 0u);
  EXPECT_GT(r.length, 12.0);  // out along the ground, up both ramps and back above the start
  EXPECT_NEAR(r.waypoints.back().pos.y, 3, kEps);
}

// A sliver (a polygon of almost no area along a wall, as float jitter leaves on map borders)
// must not claim the points of its line beyond its ends: the nearest point to a point past the
// wall's end is the wall's end, not the point itself, which is off the mesh.
TEST(NavQueryHandTest, NearestPointPastASliversEndIsTheEnd) {
  const std::vector<Vec3> v = {{0, 0, 0}, {4, 0, 0}, {4, 0, 4}, {0, 0, 4}, {2, 0, -0.00001f}};
  const auto map = testing::BuildHandMap(
      v, {testing::HandPolygon{{0, 1, 2, 3}}, testing::HandPolygon{{0, 4, 1}}});
  NavQuery q(map);
  const auto near = q.NearestPoint({6, 0, 0}, {3, 1, 3}, QueryFilter());
  ASSERT_TRUE(near.ok() && near->has_value());
  EXPECT_NEAR((*near)->pos.x, 4, 1e-4);
  EXPECT_NEAR((*near)->pos.z, 0, 1e-3);
}

TEST(NavQueryHandTest, MaxWaypointsTruncates) {
  NavQuery q(WallMap());
  PathResult r;
  PathOptions options;
  options.max_waypoints = 2;
  ASSERT_TRUE(q.FindPath({1, 0, 1}, {9, 0, 1}, QueryFilter(), options, &r).ok());
  EXPECT_EQ(r.waypoints.size(), 2u);
  EXPECT_TRUE(r.truncated);
}

TEST(NavQueryHandTest, OffMeshPointsAndBadArguments) {
  NavQuery q(Grid(3, 3));
  PathResult r;
  ASSERT_TRUE(q.FindPath({50, 0, 50}, {1, 0, 1}, QueryFilter(), {}, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kStartOffMesh);
  ASSERT_TRUE(q.FindPath({1, 0, 1}, {1, 20, 1}, QueryFilter(), {}, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kEndOffMesh);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  absl::Status s = q.FindPath({nan, 0, 1}, {1, 0, 1}, QueryFilter(), {}, &r);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("start"), std::string_view::npos) << s.message();
  PathOptions bad;
  bad.half_extents = {-1, 1, 1};
  EXPECT_FALSE(q.FindPath({1, 0, 1}, {2, 0, 2}, QueryFilter(), bad, &r).ok());
  SurfacePoint bogus{PolyRef(7, 0, kFirstGeneration), {1, 0, 1}};
  EXPECT_EQ(q.FindPath(bogus, bogus, QueryFilter(), {}, &r).code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(q.ClosestPointOnPoly(PolyRef(0, 99, kFirstGeneration), {0, 0, 0}).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(q.NearestPoint({nan, 0, 0}, {1, 1, 1}, QueryFilter()).status().code(),
            absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(q.Height(nan, 0, 0).status().code(), absl::StatusCode::kInvalidArgument);
  std::mt19937 rng(1);
  EXPECT_EQ(q.RandomPointOnIsland(99, QueryFilter(), rng).status().code(),
            absl::StatusCode::kInvalidArgument);
}

// A goal on another island: NO_PATH at once, or with allow_partial the way to the reachable
// point closest to the goal (Unity's and Detour's partial path).
TEST(NavQueryHandTest, AGoalOnAnotherIslandGivesNoPathOrAPartialPathTowardsIt) {
  auto [verts, polys] = GridPolygons(5, 1, 1.0f, 0.0f, /*holes=*/{2});
  NavQuery q(BuildHandMap(verts, polys));
  PathResult r;
  ASSERT_TRUE(q.FindPath({0.5f, 0, 0.5f}, {4.5f, 0, 0.2f}, QueryFilter(), {}, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kNoPath);
  EXPECT_EQ(r.nodes_expanded, 0u);  // told apart by their islands, no search
  PathOptions partial;
  partial.allow_partial = true;
  ASSERT_TRUE(q.FindPath({0.5f, 0, 0.5f}, {4.5f, 0, 0.2f}, QueryFilter(), partial, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kPartial);
  EXPECT_FALSE(r.node_limit);
  ASSERT_GE(r.waypoints.size(), 2u);
  EXPECT_NEAR(r.waypoints.back().pos.x, 2.0f, kEps);
  EXPECT_NEAR(r.waypoints.back().pos.z, 0.2f, kEps);
  EXPECT_NEAR(r.end.pos.x, 2.0f, kEps);
  EXPECT_TRUE(q.CheckRef(r.end.poly).ok());
}

// A reference handed out before the map was reloaded names a polygon of another generation:
// every query that takes one refuses it, saying it is stale, instead of reading whatever
// polygon has that index now.
TEST(NavQueryHandTest, ReferencesFromBeforeAReloadAreRefusedAsStale) {
  auto [verts, polys] = GridPolygons(4, 4, 1.0f);
  const auto before = BuildHandMap(verts, polys);
  NavQuery old_query(before);
  const std::optional<SurfacePoint> p =
      testing::Nearest(old_query, {1.5f, 0, 1.5f}, {1, 1, 1}, QueryFilter());
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->poly.generation(), kFirstGeneration);
  EXPECT_TRUE(old_query.CheckRef(p->poly).ok());

  // The same tiles loaded again as the next version.
  const std::vector<TileView> tiles(before->tiles().begin(), before->tiles().end());
  const auto after = std::make_shared<const NavMap>(before->info(), tiles, before,
                                                    NextGeneration(kFirstGeneration));
  NavQuery q(after);
  const absl::Status stale = q.CheckRef(p->poly);
  EXPECT_EQ(stale.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(stale.message(), ::testing::HasSubstr("stale"));
  PathResult r;
  EXPECT_EQ(q.FindPath(*p, *p, QueryFilter(), {}, &r).code(),
            absl::StatusCode::kFailedPrecondition);
  RaycastResult ray;
  EXPECT_EQ(q.Raycast(*p, {3.5f, 0, 3.5f}, QueryFilter(), &ray).code(),
            absl::StatusCode::kFailedPrecondition);
  MoveResult move;
  EXPECT_EQ(q.MoveAlongSurface(*p, {3.5f, 0, 3.5f}, QueryFilter(), &move).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(q.ClosestPointOnPoly(p->poly, p->pos).status().code(),
            absl::StatusCode::kFailedPrecondition);
  std::mt19937 rng(1);
  EXPECT_EQ(q.RandomPointInCircle(*p, 1.0f, QueryFilter(), rng).status().code(),
            absl::StatusCode::kFailedPrecondition);
  // What the new version hands out is of its own generation, and accepted.
  const std::optional<SurfacePoint> fresh =
      testing::Nearest(q, {1.5f, 0, 1.5f}, {1, 1, 1}, QueryFilter());
  ASSERT_TRUE(fresh.has_value());
  EXPECT_EQ(fresh->poly.generation(), NextGeneration(kFirstGeneration));
  ASSERT_TRUE(q.FindPath(*fresh, *fresh, QueryFilter(), {}, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kComplete);
  for (const Waypoint& w : r.waypoints) EXPECT_TRUE(q.CheckRef(w.poly).ok());
}

// A road along X at y = 0 and a bridge along Z at y = 5 crossing over it, not connected.
std::shared_ptr<const NavMap> BridgeMap() {
  std::vector<Vec3> v{{0, 0, 4}, {10, 0, 4}, {10, 0, 6}, {0, 0, 6},
                      {4, 5, 0}, {6, 5, 0},  {6, 5, 10}, {4, 5, 10}};
  return BuildHandMap(v, {{{0, 1, 2, 3}}, {{4, 5, 6, 7}}});
}

TEST(NavQueryHandTest, NearestAndHeightPickTheFloorThePointIsOn) {
  NavQuery q(BridgeMap());
  const Vec3 ext{1, 6, 1};
  auto on_bridge = testing::Nearest(q, {5, 5.2f, 5}, ext, QueryFilter());
  ASSERT_TRUE(on_bridge.has_value());
  EXPECT_EQ(on_bridge->poly.poly(), 1u);
  EXPECT_NEAR(on_bridge->pos.y, 5, kEps);
  auto on_road = testing::Nearest(q, {5, 0.3f, 5}, ext, QueryFilter());
  ASSERT_TRUE(on_road.has_value());
  EXPECT_EQ(on_road->poly.poly(), 0u);
  EXPECT_NEAR(on_road->pos.y, 0, kEps);
  // The vertical extent bounds the reach: 0.5 above the road finds nothing with extent 0.4.
  EXPECT_FALSE(testing::Nearest(q, {1, 0.5f, 5}, {1, 0.4f, 1}, QueryFilter()).has_value());
  // Off the mesh in plan view: snaps to the closest edge point.
  auto snapped = testing::Nearest(q, {1, 0, 3.5f}, ext, QueryFilter());
  ASSERT_TRUE(snapped.has_value());
  EXPECT_NEAR(snapped->pos.z, 4, kEps);
  EXPECT_NEAR(snapped->pos.x, 1, kEps);
  auto high = testing::HeightAt(q, 5, 5, 4.0f);
  ASSERT_TRUE(high.has_value());
  EXPECT_NEAR(high->pos.y, 5, kEps);
  auto low = testing::HeightAt(q, 5, 5, 1.0f);
  ASSERT_TRUE(low.has_value());
  EXPECT_NEAR(low->pos.y, 0, kEps);
  EXPECT_FALSE(testing::HeightAt(q, 1, 1, 0).has_value());
}

TEST(NavQueryHandTest, RaycastFollowsItsFloor) {
  NavQuery q(BridgeMap());
  RaycastResult r;
  const Vec3 ext{1, 1, 1};
  ASSERT_TRUE(q.Raycast({5, 5, 1}, {5, 5, 9}, QueryFilter(), ext, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kComplete);
  EXPECT_FALSE(r.hit);
  EXPECT_EQ(r.polys.size(), 1u);
  EXPECT_NEAR(r.hit_point.y, 5, kEps);
  ASSERT_TRUE(q.Raycast({5, 5, 1}, {5, 5, 12}, QueryFilter(), ext, &r).ok());
  EXPECT_TRUE(r.hit);
  EXPECT_NEAR(r.t, 9.0f / 11.0f, 1e-5);
  EXPECT_NEAR(r.hit_point.z, 10, 1e-4);
  EXPECT_NEAR(r.normal.z, -1, 1e-5);
  EXPECT_NEAR(r.normal.x, 0, 1e-5);
  ASSERT_TRUE(q.Raycast({1, 0, 5}, {9, 0, 5}, QueryFilter(), ext, &r).ok());
  EXPECT_FALSE(r.hit);
  ASSERT_TRUE(q.Raycast({50, 0, 5}, {9, 0, 5}, QueryFilter(), ext, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kStartOffMesh);
}

TEST(NavQueryHandTest, RaycastThroughGridStopsAtWall) {
  NavQuery q(WallMap());
  RaycastResult r;
  ASSERT_TRUE(q.Raycast({1.5f, 0, 1.5f}, {8.5f, 0, 1.5f}, QueryFilter(), {1, 1, 1}, &r).ok());
  ASSERT_TRUE(r.hit);
  EXPECT_NEAR(r.hit_point.x, 5, 1e-4);
  EXPECT_NEAR(r.t, 0.5f, 1e-5);
  EXPECT_NEAR(r.normal.x, -1, 1e-5);
  EXPECT_EQ(r.polys.size(), 4u);  // cells x = 1..4 of row z = 1
}

// 4 x 4 grid of unit squares without the cell x = 2..3, z = 0..1: rays on integer lines pass
// exactly through corners, as on integer-coordinate maps.
std::shared_ptr<const NavMap> CornerMap() { return Grid(4, 4, {2}); }

TEST(NavQueryHandTest, RayThroughCornersGoesOnAcrossThem) {
  NavQuery q(CornerMap());
  RaycastResult r;
  // The diagonal through corners (1, 1), (2, 2) and (3, 3).
  ASSERT_TRUE(q.Raycast({0.25f, 0, 0.25f}, {3.75f, 0, 3.75f}, QueryFilter(), {1, 1, 1}, &r).ok());
  EXPECT_FALSE(r.hit);
  EXPECT_FLOAT_EQ(r.t, 1.0f);
  // Four cells on the diagonal, and at each corner one of the two cells beside it that the
  // walk goes round the corner through.
  EXPECT_EQ(r.polys.size(), 7u);
}

TEST(NavQueryHandTest, RayGrazingAWallCornerIsNotStopped) {
  NavQuery q(CornerMap());
  RaycastResult r;
  // Through the hole's corner (2, 1), the hole to the right of the ray.
  ASSERT_TRUE(q.Raycast({1.25f, 0, 0.25f}, {2.75f, 0, 1.75f}, QueryFilter(), {1, 1, 1}, &r).ok());
  EXPECT_FALSE(r.hit);
  EXPECT_FLOAT_EQ(r.t, 1.0f);
  // Along the hole's top edge z = 1.
  ASSERT_TRUE(q.Raycast({0.5f, 0, 1}, {3.5f, 0, 1}, QueryFilter(), {1, 1, 1}, &r).ok());
  EXPECT_FALSE(r.hit);
}

TEST(NavQueryHandTest, RayIntoAWallCornerStopsThere) {
  NavQuery q(CornerMap());
  RaycastResult r;
  ASSERT_TRUE(q.Raycast({1.5f, 0, 1.5f}, {2.5f, 0, 0.5f}, QueryFilter(), {1, 1, 1}, &r).ok());
  ASSERT_TRUE(r.hit);
  EXPECT_NEAR(r.t, 0.5f, 1e-5);
  EXPECT_NEAR(r.hit_point.x, 2, 1e-4);
  EXPECT_NEAR(r.hit_point.z, 1, 1e-4);
  // A corner has no one wall: the normal is that of an edge at it, facing the ray.
  EXPECT_LT(r.normal.x * 1 + r.normal.z * -1, 0);
  EXPECT_NEAR(std::hypot(r.normal.x, r.normal.z), 1, 1e-5);
}

TEST(NavQueryHandTest, MoveAlongSurfaceSlidesAlongWall) {
  NavQuery q(WallMap());
  MoveResult m;
  // Moving diagonally into the wall at x = 5 slides along it.
  ASSERT_TRUE(q.MoveAlongSurface({4, 0, 1}, {6, 0, 3}, QueryFilter(), {1, 1, 1}, &m).ok());
  EXPECT_EQ(m.status, QueryStatus::kComplete);
  EXPECT_TRUE(m.blocked);
  EXPECT_NEAR(m.pos.x, 5, 1e-4);
  EXPECT_NEAR(m.pos.z, 3, 1e-4);
  ASSERT_FALSE(m.visited.empty());
  EXPECT_EQ(m.visited.back(), m.poly);
  // An unobstructed move reaches its target.
  ASSERT_TRUE(q.MoveAlongSurface({1, 0, 1}, {3, 0, 2}, QueryFilter(), {1, 1, 1}, &m).ok());
  EXPECT_FALSE(m.blocked);
  EXPECT_NEAR(m.pos.x, 3, 1e-5);
  EXPECT_NEAR(m.pos.z, 2, 1e-5);
}

TEST(NavQueryHandTest, RandomPointInCircleStaysInDiscAndReachable) {
  NavQuery q(WallMap());
  std::mt19937_64 rng(7);
  auto center = testing::Nearest(q, {4.5f, 0, 4.5f}, {1, 1, 1}, QueryFilter());
  ASSERT_TRUE(center.has_value());
  for (int i = 0; i < 500; ++i) {
    auto p = testing::RandomInCircle(q, *center, 2.0f, QueryFilter(), rng);
    ASSERT_TRUE(p.has_value());
    EXPECT_LE(Dist2(p->pos.x, p->pos.z, 4.5f, 4.5f), 2.0 + 1e-4);
    // Reachable without leaving the disc: never on the far side of the wall.
    EXPECT_LE(p->pos.x, 5.0f + 1e-4f);
  }
}

}  // namespace
}  // namespace waymesh
