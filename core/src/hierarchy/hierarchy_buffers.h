#pragma once
// The scratch state of hierarchical path searches (hierarchical_search.h) that a query object
// owns and reuses: nothing is allocated by a warm query.

#include <cstdint>
#include <vector>

#include "corridor.h"
#include "hierarchy/abstract_route.h"

namespace waymesh::internal {

struct HierarchyBuffers {
  AbstractRoute route;
  std::vector<float> start_costs;    // by slot of the start's cluster
  std::vector<float> goal_costs;     // by slot of the goal's cluster
  std::vector<CorridorStep> joined;  // the legs' corridors joined
  std::vector<uint8_t> corners;      // a stored leg's corner indices (ClusterCorridors)
  // Per polygon (dense global index): its position in `joined` when it is there (checked by
  // looking, so never cleared).
  std::vector<uint32_t> position;
};

}  // namespace waymesh::internal
