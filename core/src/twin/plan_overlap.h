#pragma once
// Whether two convex polygons of a tile share some plan-view area (touching along an edge or
// at a corner is not sharing): no edge of either separates them by the separating-axis test.

#include <cmath>
#include <span>

#include "waymesh/core/vec3.h"

namespace waymesh::twin {

// Overlaps thinner than this (m) count as touching.
inline constexpr double kOverlapTolerance = 1e-5;

namespace detail {
// Whether an edge of `a` (map winding) has all of `b` on or beyond its outer side.
inline bool EdgeSeparates(std::span<const Vec3> a, std::span<const Vec3> b) {
  for (size_t i = 0; i < a.size(); ++i) {
    const Vec3 p = a[i], q = a[(i + 1) % a.size()];
    const double ex = double(q.x) - p.x, ez = double(q.z) - p.z;
    const double len = std::hypot(ex, ez);
    if (!(len > 0)) continue;
    bool all_out = true;
    for (const Vec3 c : b) {
      // Signed distance to the left of p->q (inside for map winding).
      const double side = (ex * (double(c.z) - p.z) - ez * (double(c.x) - p.x)) / len;
      if (side > kOverlapTolerance) {
        all_out = false;
        break;
      }
    }
    if (all_out) return true;
  }
  return false;
}
}  // namespace detail

inline bool PlanOverlap(std::span<const Vec3> a, std::span<const Vec3> b) {
  return !detail::EdgeSeparates(a, b) && !detail::EdgeSeparates(b, a);
}

}  // namespace waymesh::twin
