#pragma once
// What the comparison keeps from one path query of either library.

#include <cstdint>

namespace waymesh::bench {

struct PathOutcome {
  bool complete = false;  // reached the goal's polygon
  double length = 0;      // 3D length of the string-pulled polyline (metres)
  uint32_t expanded = 0;  // A* nodes taken off the open list (closed nodes for Detour)
};

}  // namespace waymesh::bench
