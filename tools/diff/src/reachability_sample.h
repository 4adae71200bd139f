#pragma once
// Reachability of deterministic sample point pairs on two maps: a pair whose FindPath is
// COMPLETE on one map and not on the other flipped (a cut bridge, a new ramp, removed floor).

#include <cstdint>
#include <vector>

#include "waymesh/core/nav_query.h"
#include "waymesh/diff/map_diff.h"

namespace waymesh {

// How many pairs were compared and which flipped.
struct ReachabilitySample {
  uint32_t pairs = 0;
  std::vector<ReachabilityFlip> flips;  // in sampling order
};

// Draws options.reachability_pairs pairs of polygon centroids (of both maps, so surface that
// exists in only one of them is sampled too) with a fixed-algorithm generator seeded by
// options.seed, and runs FindPath for each pair on both maps.
ReachabilitySample CompareReachability(NavQuery& old_query, NavQuery& new_query,
                                       const MapDiffOptions& options);

}  // namespace waymesh
