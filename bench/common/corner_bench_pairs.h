#pragma once
// The query pairs of the benchmarks of exact mode's corner design (corner_graph_stats,
// corner_hub_labels): vs_detour's random pairs on one island, as points on the mesh.

#include <cstdint>
#include <utility>
#include <vector>

#include "vs_detour/query_set.h"
#include "waymesh/core/nav_query.h"

namespace waymesh::bench {

// Box in which the pairs' ends are put on the mesh (they were drawn on it).
inline constexpr Vec3 kCornerPairHalfExtents{0.5f, 2.0f, 0.5f};

// RandomReachablePairs(q, count, seed) on the mesh under `filter`; a pair whose end is not on
// it under `filter` is left out.
inline std::vector<std::pair<SurfacePoint, SurfacePoint>> CornerBenchPairs(
    NavQuery& q, const QueryFilter& filter, uint32_t count, uint64_t seed) {
  std::vector<std::pair<SurfacePoint, SurfacePoint>> pairs;
  for (const QueryCase& c : RandomReachablePairs(q, count, seed)) {
    const auto s = q.NearestPoint(c.start, kCornerPairHalfExtents, filter);
    const auto t = q.NearestPoint(c.goal, kCornerPairHalfExtents, filter);
    if (s.ok() && t.ok() && *s && *t) pairs.push_back({**s, **t});
  }
  return pairs;
}

}  // namespace waymesh::bench
