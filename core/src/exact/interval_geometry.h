#pragma once
// Plan-view geometry of the interval search in double precision: points, orientation, the
// part of a polygon edge inside the cone a root sees through an interval, and the admissible
// distance estimate from a root through an interval to the goal.

#include <algorithm>
#include <cmath>
#include <optional>

#include "waymesh/core/vec3.h"

namespace waymesh::internal::exact {

// A plan-view point (x, z) in double precision.
struct Point2 {
  double x = 0, z = 0;
  friend constexpr bool operator==(Point2, Point2) = default;
};

inline Point2 ToPoint2(Vec3 v) { return {v.x, v.z}; }
// Plain sqrt: std::hypot's overflow care costs a tenth of a search, and map coordinates are
// far below where squares overflow a double.
inline double Dist(Point2 a, Point2 b) {
  const double dx = a.x - b.x, dz = a.z - b.z;
  return std::sqrt(dx * dx + dz * dz);
}
inline Point2 Along(Point2 a, Point2 b, double t) {
  return {a.x + (b.x - a.x) * t, a.z + (b.z - a.z) * t};
}
// Twice the signed area of o, a, b: > 0 is the map's winding (as TriArea2XZ).
inline double Orient(Point2 o, Point2 a, Point2 b) {
  return (a.x - o.x) * (b.z - o.z) - (b.x - o.x) * (a.z - o.z);
}

// Edge parameters closer than this to an end (fraction of the edge) are the end itself: a ray
// that grazes a corner must land on it, or the turn there is never tried.
inline constexpr double kEndSnap = 1e-9;
// |Orient(r, a, b)| below this fraction of |a - r| * |b - r| is "r, a and b on one line".
inline constexpr double kCollinear = 1e-12;

// Parameter range [lo, hi] of t in [0, 1] where f0 + (f1 - f0) t >= 0; empty when lo > hi.
struct Range {
  double lo = 0, hi = 1;
  bool empty() const { return lo > hi; }
};
inline Range NonNegative(double f0, double f1) {
  if (f0 >= 0 && f1 >= 0) return {0, 1};
  if (f0 < 0 && f1 < 0) return {1, 0};
  const double t = f0 / (f0 - f1);
  return f0 >= 0 ? Range{0, t} : Range{t, 1};
}
inline Range Intersect(Range a, Range b) { return {std::max(a.lo, b.lo), std::min(a.hi, b.hi)}; }
// Snaps ends within kEndSnap of 0 or 1 onto them.
inline Range Snapped(Range r) {
  if (r.lo < kEndSnap) r.lo = 0;
  if (r.hi > 1 - kEndSnap) r.hi = 1;
  if (r.lo > 1 - kEndSnap) r.lo = 1;
  if (r.hi < kEndSnap) r.hi = 0;
  return r;
}

// Whether root r lies on the line of interval a-b (also when the interval is one point).
inline bool OnIntervalLine(Point2 r, Point2 a, Point2 b) {
  const double scale = Dist(r, a) * Dist(r, b);
  return std::abs(Orient(r, a, b)) <= kCollinear * scale || a == b;
}

// A cone from root r through interval a-b at most this wide (m) where it crosses the interval,
// or whose sides part at most this sine, is thin: float rounding of a map's corners (a few µm
// where carving computed them) can turn it round (sent_intervals.h).
inline constexpr double kThinConeWidth = 1e-4;
inline constexpr double kThinConeSine = 1e-4;

// Whether the cone from r through a-b is thin (kThinConeWidth, kThinConeSine).
inline bool ThinCone(Point2 r, Point2 a, Point2 b) {
  const double o = Orient(r, a, b);
  const double ra = (a.x - r.x) * (a.x - r.x) + (a.z - r.z) * (a.z - r.z);
  const double rb = (b.x - r.x) * (b.x - r.x) + (b.z - r.z) * (b.z - r.z);
  const double o2 = o * o;
  return o2 <= kThinConeWidth * kThinConeWidth * std::max(ra, rb) ||
         o2 <= kThinConeSine * kThinConeSine * ra * rb;
}

// Whether r lies on segment a-b, r being on its line.
inline bool BetweenOnLine(Point2 r, Point2 a, Point2 b) {
  return (r.x - a.x) * (r.x - b.x) + (r.z - a.z) * (r.z - b.z) <= 0;
}

// `p` mirrored across the line through a and b (a != b).
inline Point2 Mirror(Point2 p, Point2 a, Point2 b) {
  const double dx = b.x - a.x, dz = b.z - a.z;
  const double t = ((p.x - a.x) * dx + (p.z - a.z) * dz) / (dx * dx + dz * dz);
  const Point2 foot{a.x + dx * t, a.z + dz * t};
  return {2 * foot.x - p.x, 2 * foot.z - p.z};
}

// A lower bound of the length of any path from root r through interval a-b to `goal`: the
// goal is mirrored to the interval's far side when it is on the root's, then the straight line
// if it passes through the interval, else the bend round the nearer end.
inline double IntervalHeuristic(Point2 r, Point2 a, Point2 b, Point2 goal) {
  if (a == b) return Dist(r, a) + Dist(a, goal);
  const double side_r = Orient(a, b, r), side_g = Orient(a, b, goal);
  // A root on the interval itself reaches the goal straight at best.
  if (side_r == 0 && BetweenOnLine(r, a, b)) return Dist(r, goal);
  const Point2 g = (side_r == 0 || (side_r < 0) == (side_g < 0)) ? Mirror(goal, a, b) : goal;
  const double oa = Orient(r, g, a), ob = Orient(r, g, b);
  if (side_r != 0 && ((oa <= 0 && ob >= 0) || (oa >= 0 && ob <= 0))) return Dist(r, g);
  return std::min(Dist(r, a) + Dist(a, g), Dist(r, b) + Dist(b, g));
}

// How root r reaches `target` in the convex polygon behind interval a-b: straight (nullopt)
// when the cone r sees through the interval holds it, else round the interval end it returns.
inline std::optional<Point2> TurnTowards(Point2 r, Point2 a, Point2 b, Point2 target) {
  if (OnIntervalLine(r, a, b)) {
    if (BetweenOnLine(r, a, b)) return std::nullopt;
    return Dist(r, a) <= Dist(r, b) ? a : b;
  }
  if (Orient(r, b, target) < 0) return b;
  if (Orient(r, a, target) > 0) return a;
  return std::nullopt;
}

// The point of segment a-b closest to p.
inline Point2 ClosestOnSegment(Point2 a, Point2 b, Point2 p) {
  const double dx = b.x - a.x, dz = b.z - a.z, len_sq = dx * dx + dz * dz;
  if (len_sq <= 0) return a;
  const double t = std::clamp(((p.x - a.x) * dx + (p.z - a.z) * dz) / len_sq, 0.0, 1.0);
  return {a.x + dx * t, a.z + dz * t};
}

// Plan-view distance from p to segment a-b.
inline double DistToSegment(Point2 p, Point2 a, Point2 b) {
  return Dist(p, ClosestOnSegment(a, b, p));
}

}  // namespace waymesh::internal::exact
