// EntranceLandmarks (waymesh/core/hierarchy/entrance_landmarks.h) on the demo town's cluster
// graph: its bounds never exceed the graph distance to the goal (checked against a Dijkstra
// run here), and they are sharp enough to matter.

#include "waymesh/core/hierarchy/entrance_landmarks.h"

#include <cmath>
#include <functional>
#include <queue>
#include <random>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "waymesh/core/hierarchy/cluster_graph.h"
#include "waymesh/core/search_tables.h"

namespace waymesh {
namespace {

// Reference graph distances from entrance `goal` (costs are the same both ways).
std::vector<double> ReferenceDistances(const ClusterGraph& graph, uint32_t goal) {
  std::vector<double> dist(graph.entrance_count(), INFINITY);
  std::vector<uint8_t> done(graph.entrance_count(), 0);
  dist[goal] = 0;
  using Item = std::pair<double, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  open.emplace(0.0, goal);
  while (!open.empty()) {
    const uint32_t n = open.top().second;
    open.pop();
    if (done[n] != 0) continue;
    done[n] = 1;
    const ClusterGraph::Entrance& e = graph.entrance(n);
    for (int side = 0; side < 2; ++side) {
      const uint32_t c = graph.ClusterOn(e, side);
      const auto members = graph.EntrancesOf(c);
      for (uint32_t k = 0; k < members.size(); ++k) {
        const double next = dist[n] + graph.Cost(c, e.slot[side], k);
        if (next < dist[members[k]]) {
          dist[members[k]] = next;
          open.emplace(next, members[k]);
        }
      }
    }
  }
  return dist;
}

TEST(EntranceLandmarksTest, DemoTownBoundsStayBelowGraphDistances) {
  const auto& town = testing::Town(400, 7, 64);
  ASSERT_NE(town.map->search_tables(), nullptr);
  const ClusterGraph& graph = town.map->search_tables()->clusters;
  ASSERT_FALSE(graph.empty());
  const EntranceLandmarks& landmarks = graph.landmarks();
  ASSERT_FALSE(landmarks.empty());
  EXPECT_EQ(landmarks.bytes(),
            size_t(graph.entrance_count()) * EntranceLandmarks::kCount * sizeof(uint16_t));
  std::mt19937 rng(3);
  double bound_sum = 0, distance_sum = 0;
  for (int round = 0; round < 6; ++round) {
    // A goal cluster whose entrances reach the goal at made-up costs (lower bounds).
    const uint32_t c = rng() % graph.cluster_count();
    const auto members = graph.EntrancesOf(c);
    if (members.empty()) continue;
    std::vector<float> to_goal;
    for (uint32_t k = 0; k < members.size(); ++k) to_goal.push_back(float(rng() % 40));
    to_goal[0] = INFINITY;  // one entrance in another part of the cluster
    std::vector<double> via_goal(graph.entrance_count(), INFINITY);
    for (uint32_t k = 1; k < members.size(); ++k) {
      const std::vector<double> d = ReferenceDistances(graph, members[k]);
      for (uint32_t e = 0; e < d.size(); ++e)
        via_goal[e] = std::min(via_goal[e], d[e] + to_goal[k]);
    }
    const EntranceLandmarks::GoalBound goal = landmarks.ForGoal(members, to_goal);
    for (uint32_t e = 0; e < graph.entrance_count(); ++e) {
      const float bound = landmarks.Bound(e, goal);
      EXPECT_GE(bound, 0.0f);
      if (!std::isfinite(via_goal[e])) continue;
      EXPECT_LE(bound, via_goal[e] * (1 + 1e-5) + 1e-3) << "entrance " << e << " cluster " << c;
      bound_sum += bound;
      distance_sum += via_goal[e];
    }
  }
  // Landmarks round the rim of a square town bound most routes well (measured: about 0.8).
  EXPECT_GT(bound_sum, 0.5 * distance_sum);
}

TEST(EntranceLandmarksTest, EmptyTablesBoundNothing) {
  const EntranceLandmarks none;
  EXPECT_TRUE(none.empty());
  const std::vector<uint32_t> entrances = {0, 1};
  const std::vector<float> costs = {1.0f, 2.0f};
  EXPECT_EQ(none.Bound(0, none.ForGoal(entrances, costs)), 0.0f);
  EXPECT_EQ(none.bytes(), 0u);
}

}  // namespace
}  // namespace waymesh
