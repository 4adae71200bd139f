// PathResult::node_limit tells a partial path cut short by max_nodes from one whose goal is
// unreachable, so the server can answer PARTIAL vs NO_PATH as the API promises.

#include "gtest/gtest.h"
#include "polyanya_data.h"
#include "support/map_builder.h"
#include "support/test_data.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {
namespace {

TEST(PathNodeLimitTest, SetOnlyWhenTheNodeLimitCutTheSearch) {
  const testing::Aurora aurora = testing::LoadAurora();
  ASSERT_NE(aurora.map, nullptr);
  ASSERT_FALSE(aurora.queries.empty());
  const testing::ExpectedQuery longest = testing::LongestQuery(aurora.queries);
  NavQuery q(aurora.map);
  PathOptions po;
  po.half_extents = {0.5f, 1, 0.5f};
  PathResult full;
  ASSERT_TRUE(q.FindPath(longest.start, longest.goal, QueryFilter(), po, &full).ok());
  ASSERT_EQ(full.status, QueryStatus::kComplete);
  EXPECT_FALSE(full.node_limit);

  po.max_nodes = 16;
  PathResult cut;
  ASSERT_TRUE(q.FindPath(longest.start, longest.goal, QueryFilter(), po, &cut).ok());
  EXPECT_EQ(cut.status, QueryStatus::kPartial);
  EXPECT_TRUE(cut.node_limit);
  EXPECT_FALSE(cut.waypoints.empty());
}

}  // namespace
}  // namespace waymesh
