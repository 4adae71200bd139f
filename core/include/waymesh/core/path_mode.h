#pragma once
// How FindPath searches: the polygon A* with a string-pulled corridor (fast, a little longer
// than the shortest path) or the exact any-angle search (exact_path.h).

#include <cstdint>

namespace waymesh {

enum class PathMode : uint8_t {
  // A* over polygons, then the funnel and a refinement pass: near-shortest.
  kApproximate,
  // The Euclidean shortest path in plan view (interval search, exact_path.h), off-mesh links
  // at their cost. Needs one cost per metre over every area the filter allows.
  kExact,
};

}  // namespace waymesh
