#pragma once
// Geometry predicates shared by the repair steps. Sums and products run in double so that
// decisions on float input do not depend on rounding order.

#include <cmath>

#include "waymesh/core/vec3.h"
#include "waymesh/mesh/tolerances.h"

namespace waymesh::repair {

// Twice the signed plan-view area of abc (m²); > 0 is the map winding.
inline double Area2XZ(Vec3 a, Vec3 b, Vec3 c) {
  return (double(b.x) - a.x) * (double(c.z) - a.z) - (double(c.x) - a.x) * (double(b.z) - a.z);
}

// Cross product of (b - a) and (c - a) in double.
inline void CrossD(Vec3 a, Vec3 b, Vec3 c, double out[3]) {
  const double ux = double(b.x) - a.x, uy = double(b.y) - a.y, uz = double(b.z) - a.z;
  const double vx = double(c.x) - a.x, vy = double(c.y) - a.y, vz = double(c.z) - a.z;
  out[0] = uy * vz - uz * vy;
  out[1] = uz * vx - ux * vz;
  out[2] = ux * vy - uy * vx;
}

// 3D surface area of triangle abc (m²).
inline double SurfaceArea(Vec3 a, Vec3 b, Vec3 c) {
  double n[3];
  CrossD(a, b, c, n);
  return 0.5 * std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
}

// |y| of the unit normal of abc: 1 for flat floor, 0 for a vertical wall (0 when degenerate).
inline double FloorNormalY(Vec3 a, Vec3 b, Vec3 c) {
  double n[3];
  CrossD(a, b, c, n);
  const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  return len > 0 ? std::fabs(n[1]) / len : 0.0;
}

// Whether the corner `cur` of a polygon in map winding is convex or straight. A straight corner
// must continue forwards: a zero cross product with the path doubling back is a spike.
inline bool IsConvexCorner(Vec3 prev, Vec3 cur, Vec3 next) {
  const double cross = Area2XZ(prev, cur, next);
  if (cross < tol::kConvexity) return false;
  if (cross > -tol::kConvexity) return true;
  const double dot = (double(cur.x) - prev.x) * (double(next.x) - cur.x) +
                     (double(cur.z) - prev.z) * (double(next.z) - cur.z);
  return dot > 0;
}

// Squared 3D distance between a and b.
inline double DistanceSq(Vec3 a, Vec3 b) {
  const double dx = double(a.x) - b.x, dy = double(a.y) - b.y, dz = double(a.z) - b.z;
  return dx * dx + dy * dy + dz * dz;
}

}  // namespace waymesh::repair
