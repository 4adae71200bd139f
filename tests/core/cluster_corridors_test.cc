// The stored corridors of the cluster graph (waymesh/core/hierarchy/cluster_corridors.h): the
// store keeps what it is given in 4-bit steps and refuses what does not fit; on the demo town
// every stored corridor is a chain of touching polygons inside its cluster from one entrance's
// polygon to the other's; and long searches that join stored corridors instead of searching
// the middle legs answer as well as the searched legs, with fewer nodes.

#include "waymesh/core/hierarchy/cluster_corridors.h"

#include <cmath>
#include <optional>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "support/query_points.h"
#include "waymesh/core/hierarchy/cluster_graph.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/search_tables.h"

namespace waymesh {
namespace {

using CorridorPairs = std::vector<std::optional<std::vector<uint8_t>>>;

std::vector<uint8_t> ReadPair(const ClusterCorridors& store, uint32_t c, uint32_t i, uint32_t j) {
  std::vector<uint8_t> corners;
  EXPECT_TRUE(store.Read(c, i, j, &corners)) << c << " " << i << " " << j;
  return corners;
}

TEST(ClusterCorridorsTest, KeepsStepsAndRefusesWhatDoesNotFit) {
  ClusterCorridors store;
  EXPECT_TRUE(store.empty());
  // Three entrances: pairs (0,1) (0,2) (1,2); odd lengths so pairs share bytes.
  ASSERT_TRUE(store.Add(
      3, CorridorPairs{std::vector<uint8_t>{1, 2, 3}, std::nullopt, std::vector<uint8_t>{15, 0}}));
  // Two entrances: one pair, with a corner index past 4 bits (not stored).
  ASSERT_TRUE(store.Add(2, CorridorPairs{std::vector<uint8_t>{16}}));
  // Four entrances: six pairs, one with no steps (both entrances on one polygon).
  ASSERT_TRUE(store.Add(4, CorridorPairs{std::vector<uint8_t>{}, std::vector<uint8_t>{7},
                                         std::vector<uint8_t>{9, 9, 9, 9, 9}, std::nullopt,
                                         std::vector<uint8_t>{4}, std::vector<uint8_t>{14, 13}}));
  EXPECT_FALSE(store.empty());
  EXPECT_EQ(ReadPair(store, 0, 0, 1), (std::vector<uint8_t>{1, 2, 3}));
  EXPECT_EQ(ReadPair(store, 0, 1, 0), (std::vector<uint8_t>{1, 2, 3}));  // lower slot first
  EXPECT_EQ(ReadPair(store, 0, 2, 1), (std::vector<uint8_t>{15, 0}));
  EXPECT_EQ(ReadPair(store, 2, 0, 1), (std::vector<uint8_t>{}));
  EXPECT_EQ(ReadPair(store, 2, 0, 3), (std::vector<uint8_t>{9, 9, 9, 9, 9}));
  EXPECT_EQ(ReadPair(store, 2, 3, 1), (std::vector<uint8_t>{4}));
  EXPECT_EQ(ReadPair(store, 2, 3, 2), (std::vector<uint8_t>{14, 13}));
  std::vector<uint8_t> corners;
  EXPECT_FALSE(store.Read(0, 0, 2, &corners));  // not given
  EXPECT_FALSE(store.Read(1, 0, 1, &corners));  // did not fit
  EXPECT_FALSE(store.Read(2, 1, 2, &corners));  // not given
  EXPECT_FALSE(store.Read(2, 1, 1, &corners));  // no pair
  EXPECT_FALSE(store.Read(3, 0, 1, &corners));  // no such cluster
  EXPECT_TRUE(corners.empty());
  // A cluster of k entrances needs k (k - 1) / 2 pairs.
  EXPECT_FALSE(store.Add(3, CorridorPairs{std::vector<uint8_t>{1}}));
  EXPECT_FALSE(store.Read(3, 0, 1, &corners));
  EXPECT_GT(store.bytes(), 0u);
}

// `map` (with its search tables) with a 1 x 1 cluster graph built with or without stored
// corridors.
std::shared_ptr<const NavMap> WithClusterGraph(const std::shared_ptr<const NavMap>& map,
                                               bool stored) {
  auto tables = std::make_shared<SearchTables>(*map->search_tables());
  tables->clusters = ClusterGraph::Build(*map, 1, stored);
  return std::make_shared<const NavMap>(*map, std::move(tables));
}

TEST(ClusterCorridorsTest, DemoTownCorridorsWalkInsideTheirClusterBetweenEntrances) {
  const auto& town = testing::Town(400, 7, 64);
  ASSERT_NE(town.map->search_tables(), nullptr);
  const ClusterGraph& graph = town.map->search_tables()->clusters;
  ASSERT_FALSE(graph.empty());
  ASSERT_FALSE(graph.corridors().empty());
  EXPECT_LT(graph.bytes(), town.bytes.size() / 10);
  int connected = 0, stored = 0;
  std::vector<uint8_t> corners;
  for (uint32_t c = 0; c < graph.cluster_count(); ++c) {
    const auto members = graph.EntrancesOf(c);
    for (uint32_t i = 0; i < members.size(); ++i) {
      for (uint32_t j = i + 1; j < members.size(); ++j) {
        if (!std::isfinite(graph.Cost(c, i, j))) continue;
        ++connected;
        corners.clear();
        if (!graph.corridors().Read(c, i, j, &corners)) continue;
        ++stored;
        const ClusterGraph::Entrance &a = graph.entrance(members[i]),
                                     &b = graph.entrance(members[j]);
        PolyIndex at = a.poly[graph.SideIn(a, c)];
        for (const uint8_t corner : corners) {
          const TileView& t = town.map->tile(at.tile);
          ASSERT_LT(corner, t.corner_count(at.poly));
          const std::optional<PolyIndex> next = t.across(t.poly_start[at.poly] + corner);
          ASSERT_TRUE(next.has_value()) << "a wall in cluster " << c;
          at = *next;
          ASSERT_EQ(graph.ClusterOf(at.tile), c);
        }
        EXPECT_EQ(at, b.poly[graph.SideIn(b, c)]) << "cluster " << c;
      }
    }
  }
  // The town has no off-mesh links and no polygon of 16 corners: every walk is stored.
  EXPECT_GT(connected, int(graph.entrance_count()));
  EXPECT_EQ(stored, connected);
  EXPECT_TRUE(WithClusterGraph(town.map, false)->search_tables()->clusters.corridors().empty());
}

TEST(ClusterCorridorsTest, StoredCorridorsAnswerLikeSearchedLegsWithFewerNodes) {
  const auto& town = testing::Town(400, 7, 64);
  const auto stored = WithClusterGraph(town.map, true),
             searched = WithClusterGraph(town.map, false);
  ASSERT_FALSE(stored->search_tables()->clusters.corridors().empty());
  NavQuery with(stored), without(searched), plain(stored, {.hierarchy = false});
  const QueryFilter filter(town.map->info());
  std::mt19937_64 rng(11);
  PathResult w, s, p;
  int long_pairs = 0;
  double nodes_with = 0, nodes_without = 0, ratio_with = 0, ratio_without = 0;
  for (int draw = 0; long_pairs < 40 && draw < 2000; ++draw) {
    const auto a = testing::RandomOnMap(plain, filter, rng);
    const auto b = testing::RandomOnMap(plain, filter, rng);
    if (!a || !b || DistanceXZ(a->pos, b->pos) < 200) continue;
    ASSERT_TRUE(with.FindPath(*a, *b, filter, {}, &w).ok());
    ASSERT_TRUE(without.FindPath(*a, *b, filter, {}, &s).ok());
    ASSERT_TRUE(plain.FindPath(*a, *b, filter, {}, &p).ok());
    ASSERT_EQ(w.status, p.status);
    ASSERT_EQ(s.status, p.status);
    if (p.status != QueryStatus::kComplete || !w.hierarchical || !s.hierarchical) continue;
    ++long_pairs;
    EXPECT_EQ(w.waypoints.front().pos, a->pos);
    EXPECT_EQ(w.waypoints.back().pos, b->pos);
    nodes_with += w.nodes_expanded;
    nodes_without += s.nodes_expanded;
    ratio_with += w.length / p.length;
    ratio_without += s.length / p.length;
  }
  ASSERT_GT(long_pairs, 20);
  // Only the first and last legs are searched.
  EXPECT_LT(nodes_with, nodes_without / 2);
  // As short on average as the searched legs: the funnel and the corner refinement straighten
  // both, but the refinement stops after a few rounds, so single paths differ by up to about
  // 1 % either way (mean difference over these 40 pairs: 0.1 %, its standard error 0.07 %).
  EXPECT_LE(ratio_with / long_pairs, ratio_without / long_pairs + 3e-3);
  EXPECT_LE(ratio_with / long_pairs, 1.01);
}

TEST(ClusterCorridorsTest, WalksThatDoNotCheckOutAreSearched) {
  const auto& town = testing::Town(400, 7, 64);
  const auto searched = WithClusterGraph(town.map, false);
  // A store whose every walk leaves its first polygon by corner 15 (no town polygon has 16
  // corners): no stored leg checks out, so every leg is searched as without a store.
  auto tables = std::make_shared<SearchTables>(*searched->search_tables());
  ClusterCorridors damaged;
  for (uint32_t c = 0; c < tables->clusters.cluster_count(); ++c) {
    const uint32_t k = uint32_t(tables->clusters.EntrancesOf(c).size());
    ASSERT_TRUE(damaged.Add(k, CorridorPairs(size_t(k) * (k < 1 ? 0 : k - 1) / 2,
                                             std::vector<uint8_t>{ClusterCorridors::kMaxCorner})));
  }
  tables->clusters.ReplaceCorridors(std::move(damaged));
  ASSERT_FALSE(tables->clusters.corridors().empty());
  const auto wrong = std::make_shared<const NavMap>(*town.map, std::move(tables));
  NavQuery with(wrong), without(searched);
  const QueryFilter filter(town.map->info());
  std::mt19937_64 rng(13);
  PathResult w, s;
  int hierarchical = 0;
  for (int pair = 0; pair < 30; ++pair) {
    const auto a = testing::RandomOnMap(without, filter, rng);
    const auto b = testing::RandomOnMap(without, filter, rng);
    if (!a || !b) continue;
    ASSERT_TRUE(with.FindPath(*a, *b, filter, {}, &w).ok());
    ASSERT_TRUE(without.FindPath(*a, *b, filter, {}, &s).ok());
    EXPECT_EQ(w.status, s.status);
    EXPECT_EQ(w.hierarchical, s.hierarchical);
    EXPECT_EQ(w.nodes_expanded, s.nodes_expanded);
    EXPECT_EQ(w.corridor, s.corridor);
    EXPECT_EQ(w.length, s.length);
    hierarchical += w.hierarchical ? 1 : 0;
  }
  EXPECT_GT(hierarchical, 5);
}

}  // namespace
}  // namespace waymesh
