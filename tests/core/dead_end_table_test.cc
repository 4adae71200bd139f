// Dead ends: which polygons the table strips, what a search may skip, that skipping never
// changes a path (hand-built comb, and every Polyanya aurora query), and that a partial path
// still reaches the polygon closest to an unreachable goal when that polygon is a dead end.

#include "waymesh/core/dead_end_table.h"

#include <cmath>
#include <vector>

#include "gtest/gtest.h"
#include "hand_built_map.h"
#include "polyanya_data.h"
#include "support/map_builder.h"
#include "support/test_data.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {
namespace {

using testing::BuildHandMap;
using testing::GridPolygons;

// A comb of 1 m cells: rows z = 0 and 1 are full (a block with cycles: the core), and three
// teeth two cells long hang off it at x = 0, 2 and 4. Polygons are numbered row by row:
//
//   z=3  13  .  14  .  15
//   z=2  10  .  11  .  12
//   z=1   5  6   7  8   9
//   z=0   0  1   2  3   4
constexpr uint32_t kToothTop[] = {10, 11, 12}, kToothBottom[] = {13, 14, 15};

std::shared_ptr<const NavMap> CombMap(uint8_t area_of_last_tooth_top = kWalkableArea) {
  auto [verts, polys] = GridPolygons(5, 4, 1.0f, 0.0f, {11, 13, 16, 18});
  polys[kToothTop[2]].area = area_of_last_tooth_top;
  return BuildHandMap(verts, polys);
}

TEST(DeadEndTableTest, StripsTheTeethOfACombAndKeepsItsBlock) {
  const auto map = CombMap();
  const DeadEndTable& table = map->search_tables()->dead_ends;
  EXPECT_EQ(table.dead_end_count(), 6u);
  // Going down a tooth whose end is not the goal: skip it.
  EXPECT_TRUE(table.Skippable(5, kToothTop[0], 0));
  EXPECT_TRUE(table.Skippable(kToothTop[0], kToothBottom[0], 0));
  EXPECT_TRUE(table.Skippable(7, kToothTop[1], kToothBottom[0]));
  // The goal in the tooth, at its top or its end: enter it.
  EXPECT_FALSE(table.Skippable(5, kToothTop[0], kToothBottom[0]));
  EXPECT_FALSE(table.Skippable(5, kToothTop[0], kToothTop[0]));
  // Leaving a tooth (a search that starts in it) and moving in the core are never skipped.
  EXPECT_FALSE(table.Skippable(kToothBottom[0], kToothTop[0], 4));
  EXPECT_FALSE(table.Skippable(kToothTop[0], 5, 4));
  EXPECT_FALSE(table.Skippable(0, 1, 4));
  EXPECT_FALSE(table.Skippable(1, 6, kToothBottom[2]));
}

TEST(DeadEndTableTest, AMapWithoutTreesHasAnEmptyTable) {
  auto [verts, polys] = GridPolygons(4, 4, 1.0f);
  const auto map = BuildHandMap(verts, polys);
  EXPECT_TRUE(map->search_tables()->dead_ends.empty());
  EXPECT_EQ(map->search_tables()->dead_ends.dead_end_count(), 0u);
}

TEST(DeadEndTableTest, AnIslandThatIsATreeIsStrippedWhole) {
  auto [verts, polys] = GridPolygons(6, 1, 1.0f);  // a strip: every polygon a dead end
  const auto map = BuildHandMap(verts, polys);
  const DeadEndTable& table = map->search_tables()->dead_ends;
  EXPECT_EQ(table.dead_end_count(), 6u);
  // Wherever the tree's root is, the way to the goal is never skipped, the way away from it
  // always is.
  for (uint32_t from = 0; from < 6; ++from) {
    for (uint32_t goal = 0; goal < 6; ++goal) {
      if (goal == from) continue;
      const uint32_t towards = goal > from ? from + 1 : from - 1;
      EXPECT_FALSE(table.Skippable(from, towards, goal)) << from << " -> " << goal;
      if (from > 0 && from < 5) {
        const uint32_t away = goal > from ? from - 1 : from + 1;
        EXPECT_TRUE(table.Skippable(from, away, goal)) << from << " -> " << goal;
      }
    }
  }
}

TEST(DeadEndTableTest, PolygonsWithOffMeshLinksAreNeverStripped) {
  // A strip of five cells with a link from the first to the fourth: the link closes a cycle, so
  // only the fifth cell hangs off the rest.
  auto [verts, polys] = GridPolygons(5, 1, 1.0f);
  const auto map = BuildHandMap(verts, polys, {{{0.5f, 0, 0.5f}, {3.5f, 0, 0.5f}, 0, 3, 1.0f}});
  const DeadEndTable& table = map->search_tables()->dead_ends;
  EXPECT_EQ(table.dead_end_count(), 1u);
  EXPECT_TRUE(table.Skippable(3, 4, 0));
  EXPECT_FALSE(table.Skippable(1, 0, 3));  // a link's end, with one edge neighbour only
  EXPECT_FALSE(table.Skippable(3, 4, 4));
}

TEST(DeadEndTableTest, SkippingTheTeethLeavesThePathAsItWas) {
  const auto map = CombMap();
  NavQueryOptions all;
  all.dead_ends = false;
  NavQuery skipping(map), searching(map, all);
  PathResult a, b;
  const Vec3 start{0.5f, 0, 3.5f}, goal{4.5f, 0, 3.5f};  // bottom of the first and last tooth
  ASSERT_TRUE(skipping.FindPath(start, goal, QueryFilter(), PathOptions(), &a).ok());
  ASSERT_TRUE(searching.FindPath(start, goal, QueryFilter(), PathOptions(), &b).ok());
  ASSERT_EQ(a.status, QueryStatus::kComplete);
  EXPECT_EQ(a.corridor, b.corridor);
  EXPECT_EQ(a.length, b.length);
  EXPECT_LT(a.nodes_expanded, b.nodes_expanded);  // the middle tooth is not visited
}

TEST(DeadEndTableTest, APartialPathStillEndsInTheClosestDeadEnd) {
  // The last tooth's top is of an area the filter rejects, so its end (the goal) is out of
  // reach. The reachable polygon closest to the goal is the end of the middle tooth (1.1 m
  // away; the core's corner is 1.5 m), a dead end the goal is not in.
  constexpr uint8_t kMud = 5;
  const auto map = CombMap(kMud);
  QueryFilter no_mud;
  no_mud.SetAreaEnabled(kMud, false);
  NavQueryOptions all;
  all.dead_ends = false;
  NavQuery skipping(map), searching(map, all);
  PathResult a, b;
  const Vec3 start{0.5f, 0, 0.5f}, goal{4.1f, 0, 3.5f};
  PathOptions partial;
  partial.allow_partial = true;
  ASSERT_TRUE(skipping.FindPath(start, goal, no_mud, partial, &a).ok());
  ASSERT_TRUE(searching.FindPath(start, goal, no_mud, partial, &b).ok());
  ASSERT_EQ(a.status, QueryStatus::kPartial);
  EXPECT_FALSE(a.node_limit);
  ASSERT_FALSE(a.corridor.empty());
  EXPECT_EQ(a.corridor.back(), map->Ref({0, kToothBottom[1]}));
  EXPECT_EQ(a.corridor, b.corridor);
  EXPECT_EQ(a.length, b.length);
}

TEST(DeadEndTableTest, AuroraPathsAreTheSameWithFarFewerNodes) {
  const testing::Aurora aurora = testing::LoadAurora();
  ASSERT_NE(aurora.map, nullptr);
  const DeadEndTable& table = aurora.map->search_tables()->dead_ends;
  // Aurora's merged polygons: most of the map is corridors ending at walls.
  EXPECT_GT(table.dead_end_count(), 15000u);
  EXPECT_EQ(table.bytes(), 8u * 19244u);
  NavQueryOptions all;
  all.dead_ends = false;
  NavQuery skipping(aurora.map), searching(aurora.map, all);
  PathOptions po;
  po.half_extents = {0.5f, 1, 0.5f};
  const std::vector<testing::ExpectedQuery>& queries = aurora.queries;
  ASSERT_GT(queries.size(), 2000u);
  PathResult a, b;
  uint64_t nodes_skipping = 0, nodes_searching = 0;
  int differ = 0;
  for (size_t i = 0; i < queries.size(); i += 2) {
    const auto& q = queries[i];
    ASSERT_TRUE(skipping.FindPath(q.start, q.goal, QueryFilter(), po, &a).ok());
    ASSERT_TRUE(searching.FindPath(q.start, q.goal, QueryFilter(), po, &b).ok());
    ASSERT_EQ(a.status, QueryStatus::kComplete) << i;
    nodes_skipping += a.nodes_expanded;
    nodes_searching += b.nodes_expanded;
    // Paths may differ only where the search's tie-breaking does, and then by rounding.
    if (a.corridor != b.corridor) ++differ;
    EXPECT_NEAR(a.length, b.length, 1e-4 * b.length) << i;
  }
  EXPECT_LT(differ, 10);
  EXPECT_LT(nodes_skipping * 4, nodes_searching);
}

}  // namespace
}  // namespace waymesh
