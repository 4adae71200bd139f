#pragma once
// `--connected A B`: pairs of positions that must be joined by a complete path.

#include <span>
#include <vector>

#include "waymesh/checks/map_checks.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {

// One finding per pair whose FindPath (map area costs, every flag) is not COMPLETE, naming
// both positions and the status.
std::vector<MapFinding> CheckConnectedPairs(NavQuery& query, std::span<const ConnectedPair> pairs,
                                            Vec3 half_extents);

}  // namespace waymesh
