#pragma once
// Islands merged or split between two builds: sample points on the old map (polygon
// centroids) are put on the new map with FindNearest; an old island whose samples land on
// several new islands was split, a new island that receives samples of several old islands is
// a merge.

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "waymesh/core/nav_query.h"
#include "waymesh/diff/map_diff.h"

namespace waymesh {

// Samples the first polygon of every old island plus every k-th polygon, at most about
// `max_samples` in all. A sampled polygon listed in `same_shape` (old -> new polygon of the same
// shape) lands on that polygon, so overlapping floors cannot confuse it; any other lands where
// FindNearest puts its centroid, or is ignored when that is farther than
// tol::kDiffSampleReachXZ / kDiffSampleReachY (the surface was removed). Changes come in island
// order.
std::vector<IslandChange> CompareIslands(
    const NavMap& old_map, NavQuery& new_query,
    std::span<const std::pair<PolyIndex, PolyIndex>> same_shape, uint32_t max_samples);

}  // namespace waymesh
