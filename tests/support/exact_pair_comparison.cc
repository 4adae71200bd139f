#include "support/exact_pair_comparison.h"

#include <algorithm>
#include <random>

#include "gtest/gtest.h"
#include "support/query_points.h"

namespace waymesh::testing {

ExactPairComparison CompareExactPairs(NavQuery& plain, NavQuery& fast, const QueryFilter& filter,
                                      int pairs, uint32_t seed) {
  ExactPairComparison out;
  std::mt19937 rng(seed);
  PathOptions po;
  po.mode = PathMode::kExact;
  for (int i = 0; i < pairs; ++i) {
    const auto from = RandomOnMap(plain, filter, rng);
    const auto to = RandomOnMap(plain, filter, rng);
    EXPECT_TRUE(from && to);
    if (!from || !to) return out;
    PathResult a, b;
    EXPECT_TRUE(plain.FindPath(from->pos, to->pos, filter, po, &a).ok());
    EXPECT_TRUE(fast.FindPath(from->pos, to->pos, filter, po, &b).ok());
    EXPECT_EQ(a.status, b.status) << "pair " << i;
    if (a.status != QueryStatus::kComplete || b.status != QueryStatus::kComplete) continue;
    EXPECT_NEAR(b.length, a.length, 1e-6 * std::max(1.0, double(a.length))) << "pair " << i;
    out.plain_nodes += a.nodes_expanded;
    out.fast_nodes += b.nodes_expanded;
    ++out.compared;
  }
  return out;
}

}  // namespace waymesh::testing
