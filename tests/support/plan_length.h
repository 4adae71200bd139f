#pragma once
// The plan-view (X-Z) length of a path's waypoints: what exact mode minimises and what the
// plan-view oracles measure (PathResult::length runs along slopes).

#include <cmath>

#include "waymesh/core/path_result.h"

namespace waymesh::testing {

inline double PlanLength(const PathResult& path) {
  double length = 0;
  for (size_t k = 0; k + 1 < path.waypoints.size(); ++k) {
    const Vec3 s = path.waypoints[k].pos, e = path.waypoints[k + 1].pos;
    length += std::hypot(double(e.x) - s.x, double(e.z) - s.z);
  }
  return length;
}

}  // namespace waymesh::testing
