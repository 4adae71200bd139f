#pragma once
// Exact mode on one map with and without a landmark table, over random pairs: the same
// lengths (1e-6 relative) and statuses are expected; the caller compares the node counts.

#include <cstdint>

#include "waymesh/core/nav_query.h"
#include "waymesh/core/query_filter.h"

namespace waymesh::testing {

struct ExactPairComparison {
  int compared = 0;  // pairs both searches completed
  uint64_t plain_nodes = 0, fast_nodes = 0;
};

// `pairs` random pairs (seed `seed`) on `plain`'s map under `filter`, asked of both queries
// in exact mode; fails the test where statuses or lengths differ.
ExactPairComparison CompareExactPairs(NavQuery& plain, NavQuery& fast, const QueryFilter& filter,
                                      int pairs, uint32_t seed);

}  // namespace waymesh::testing
