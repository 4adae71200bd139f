#pragma once
// What the comparison keeps from one path query of either library.

namespace waymesh::bench {

struct PathOutcome {
  bool complete = false;  // reached the goal's polygon
  double length = 0;      // 3D length of the string-pulled polyline (metres)
};

}  // namespace waymesh::bench
