#pragma once
// The polygon corridor an A* search (or a walk) produced, with how each polygon was entered.

#include <cstdint>

#include "waymesh/core/poly_index.h"

namespace waymesh::internal {

struct CorridorStep {
  PolyIndex at;
  uint32_t via;  // kViaStart, kViaLinkBit | link index in the previous step's tile, or the
                 // corner index of the previous polygon's crossed edge (see node_pool.h)
};

// Where a waypoint of a built path bends: the corridor index of the polygon behind the portal
// the corner lies on, and which end of that portal it is (+1 left, -1 right, 0 not a corner).
struct CornerInfo {
  uint32_t step;
  int8_t side;
};

}  // namespace waymesh::internal
