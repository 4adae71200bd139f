// Exact mode where cones collapse to float precision (sent_intervals.h): long queries across
// the 256 m demo town (corners collinear along its streets) that ran past four million
// interval nodes without completing before a root was kept from sending two intervals over
// one part of an edge. Carved maps are covered by carved_path_oracle_test.cc.

#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "support/plan_length.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {
namespace {

TEST(ExactThinConeTest, LongDemoTownQueriesCompleteWithinTheDefaultLimit) {
  const testing::DemoTown& town = testing::Town(256, 7);
  const QueryFilter filter = ExactReadyFilter(*town.map);
  NavQuery q(town.map);
  // Plan-view ends found by bench/exact_obstacles (snapped to the surface by FindPath).
  const std::vector<std::pair<Vec3, Vec3>> pairs = {
      {{94.299f, 0, 64.142f}, {-17.027f, 0, 58.820f}},
      {{124.738f, 0, 113.889f}, {-64.273f, 0, 100.068f}},
      {{82.497f, 0, -18.658f}, {-96.682f, 0, 27.746f}},
      {{105.531f, 0, 19.688f}, {-29.104f, 0, 30.728f}},
      {{127.382f, 0, 91.276f}, {-47.705f, 0, 123.109f}},
      {{104.565f, 0, 10.317f}, {-86.979f, 0, 58.077f}},
  };
  PathOptions exact_options;
  exact_options.mode = PathMode::kExact;
  for (const auto& [from, to] : pairs) {
    SCOPED_TRACE(std::to_string(from.x) + "," + std::to_string(from.z));
    PathResult approximate, exact;
    ASSERT_TRUE(q.FindPath(from, to, filter, {}, &approximate).ok());
    ASSERT_EQ(approximate.status, QueryStatus::kComplete);
    ASSERT_TRUE(q.FindPath(from, to, filter, exact_options, &exact).ok());
    EXPECT_EQ(exact.status, QueryStatus::kComplete) << exact.nodes_expanded << " nodes";
    EXPECT_LE(testing::PlanLength(exact), testing::PlanLength(approximate) * (1 + 1e-6) + 1e-4);
    // A long way across the town, not a short cut through a wall.
    EXPECT_GT(testing::PlanLength(exact), 0.9 * testing::PlanLength(approximate));
  }
}

}  // namespace
}  // namespace waymesh
