// The landmark table's lower bounds against published optimal path lengths: never (beyond the
// flood's accuracy) above the true distance, symmetric, and tight enough to guide A*.

#include "waymesh/core/landmark_table.h"

#include <algorithm>

#include "gtest/gtest.h"
#include "polyanya_data.h"
#include "support/map_builder.h"
#include "support/test_data.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {
namespace {

uint32_t Global(const NavMap& map, PolyRef ref) {
  uint32_t base = 0;
  for (uint32_t t = 0; t < ref.tile(); ++t) base += map.tile(t).poly_count();
  return base + ref.poly();
}

TEST(LandmarkTableTest, BoundsNeverExceedTheOptimumAndAreTight) {
  auto map = testing::CachedMapFromFile(testing::SharedData("polyanya/meshes/aurora.mesh"),
                                        RepairOptions{.merge = false});
  ASSERT_TRUE(map.ok()) << map.status();
  const LandmarkTable& table = (*map)->landmarks();
  ASSERT_EQ(table.count(), LandmarkTable::kDefaultCount);
  EXPECT_EQ(&table, &(*map)->landmarks());  // built once, shared
  NavQuery q(*map);
  const auto queries = testing::ReadExpectedFile(
      testing::SharedData("polyanya/expected/aurora_euclid_expected.csv"));
  double ratio_sum = 0;
  int n = 0, above = 0;
  for (const auto& e : queries) {
    auto s = q.FindNearest(e.start, {0.5f, 1, 0.5f}, QueryFilter());
    auto g = q.FindNearest(e.goal, {0.5f, 1, 0.5f}, QueryFilter());
    ASSERT_TRUE(s && g);
    const uint32_t a = Global(**map, s->poly), b = Global(**map, g->poly);
    const float bound = table.LowerBound(a, b);
    EXPECT_EQ(bound, table.LowerBound(b, a));
    // Floods measure taut paths through the corridors they settled: nearly always within a
    // fraction of a percent of the true distance, at worst like a path's worst case.
    EXPECT_LE(bound, e.length * 1.25 + 1e-3) << e.start.x << "," << e.start.z;
    above += bound > e.length * 1.005 + 1e-3;
    ratio_sum += e.length > 0 ? bound / e.length : 1.0;
    ++n;
  }
  EXPECT_LT(above, n / 20) << "bounds above the optimum";
  EXPECT_EQ(table.LowerBound(0, 0), 0.0f);
  // Useful: on average the bound recovers most of the true distance.
  EXPECT_GT(ratio_sum / n, 0.6) << "mean bound / optimum";
}

TEST(LandmarkTableTest, SmallMapsHaveNoTable) {
  auto map = testing::CachedMapFromFile(testing::SharedData("polyanya/meshes/arena.mesh"),
                                        RepairOptions{.merge = false});
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_TRUE((*map)->landmarks().empty());
  EXPECT_EQ((*map)->landmarks().LowerBound(0, 5), 0.0f);
  EXPECT_TRUE(LandmarkTable().empty());
}

}  // namespace
}  // namespace waymesh
