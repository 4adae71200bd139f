#include "crowd/orca_solver.h"

#include <algorithm>
#include <cmath>

#include "waymesh/core/crowd/crowd_tolerances.h"

namespace waymesh::crowd::internal {
namespace {

// Whether `v` lies strictly outside half-plane `h`.
bool Violates(const HalfPlane& h, V2 v) { return Det2(h.dir, h.point - v) > 0; }

// The best point on the boundary line of planes[i] inside the speed disc and the planes before
// it: closest to `target`, or furthest along `target` when `direction` is set. False when that
// part of the line is empty.
bool SolveOnLine(std::span<const HalfPlane> planes, size_t i, float max_speed, V2 target,
                 bool direction, V2* out) {
  const HalfPlane& h = planes[i];
  // The line meets the speed disc where |point + t dir| = max_speed.
  const float along = Dot2(h.point, h.dir);
  const float disc = along * along + max_speed * max_speed - LengthSq2(h.point);
  if (disc < 0) return false;
  const float root = std::sqrt(disc);
  float t_lo = -along - root;
  float t_hi = -along + root;
  for (size_t j = 0; j < i; ++j) {
    const HalfPlane& g = planes[j];
    const float denom = Det2(h.dir, g.dir);
    const float numer = Det2(g.dir, h.point - g.point);
    if (std::fabs(denom) <= tol::kOrcaParallel) {
      // Parallel boundaries: this line is wholly inside or wholly outside plane j.
      if (numer < 0) return false;
      continue;
    }
    const float t = numer / denom;
    if (denom > 0) {
      t_hi = std::min(t_hi, t);
    } else {
      t_lo = std::max(t_lo, t);
    }
    if (t_lo > t_hi) return false;
  }
  float t;
  if (direction) {
    t = Dot2(target, h.dir) > 0 ? t_hi : t_lo;
  } else {
    t = std::clamp(Dot2(h.dir, target - h.point), t_lo, t_hi);
  }
  *out = h.point + h.dir * t;
  return true;
}

// Adds the planes one at a time, moving the answer onto a plane's line when it breaks it.
// Returns planes.size() on success, else the index of the plane that could not be met (the
// answer then holds the best velocity for the planes before it).
size_t SolveIncremental(std::span<const HalfPlane> planes, float max_speed, V2 target,
                        bool direction, V2* out) {
  if (direction) {
    *out = target * max_speed;  // target is a unit direction here
  } else {
    *out = ClampLength2(target, max_speed);
  }
  for (size_t i = 0; i < planes.size(); ++i) {
    if (!Violates(planes[i], *out)) continue;
    const V2 before = *out;
    if (!SolveOnLine(planes, i, max_speed, target, direction, out)) {
      *out = before;
      return i;
    }
  }
  return planes.size();
}

// No velocity meets every plane: from plane `first` on, lower the worst violation of the soft
// planes (index >= hard) one plane at a time, keeping the hard planes met.
void MinimiseViolation(std::span<const HalfPlane> planes, size_t hard, size_t first,
                       float max_speed, std::span<HalfPlane> projected, V2* out) {
  float worst = 0;
  for (size_t i = first; i < planes.size(); ++i) {
    const HalfPlane& h = planes[i];
    if (Det2(h.dir, h.point - *out) <= worst) continue;
    // Velocities that violate plane i no more than each earlier soft plane: bisectors.
    size_t n = 0;
    for (size_t j = 0; j < hard; ++j) projected[n++] = planes[j];
    for (size_t j = hard; j < i; ++j) {
      const HalfPlane& g = planes[j];
      HalfPlane p;
      const float denom = Det2(h.dir, g.dir);
      if (std::fabs(denom) <= tol::kOrcaParallel) {
        if (Dot2(h.dir, g.dir) > 0) continue;  // same direction: plane i decides
        p.point = (h.point + g.point) * 0.5f;
      } else {
        p.point = h.point + h.dir * (Det2(g.dir, h.point - g.point) / denom);
      }
      p.dir = Normalized2(g.dir - h.dir);
      projected[n++] = p;
    }
    const V2 before = *out;
    const V2 inward{-h.dir.z, h.dir.x};  // towards the allowed side of plane i
    if (SolveIncremental(std::span<const HalfPlane>(projected.data(), n), max_speed, inward, true,
                         out) < n) {
      // Only float trouble can get here (the previous answer met these planes): keep it.
      *out = before;
    }
    worst = Det2(h.dir, h.point - *out);
  }
}

}  // namespace

V2 SolveOrca(std::span<const HalfPlane> planes, size_t hard, float max_speed, V2 preferred,
             std::span<HalfPlane> scratch) {
  if (planes.size() > scratch.size()) planes = planes.first(scratch.size());
  hard = std::min(hard, planes.size());
  V2 v;
  const size_t failed = SolveIncremental(planes, max_speed, preferred, false, &v);
  // Walls that cannot all be met together (a passage narrower than the agent) turn soft from
  // the first one that failed.
  if (failed < planes.size()) {
    MinimiseViolation(planes, std::min(hard, failed), failed, max_speed, scratch, &v);
  }
  return v;
}

}  // namespace waymesh::crowd::internal
