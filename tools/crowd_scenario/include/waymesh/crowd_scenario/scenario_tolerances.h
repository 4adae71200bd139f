#pragma once
// The tolerances of crowd runs and their quality meter (crowd_run.h, crowd_quality.h), with
// their units; the crowd's own are in waymesh/core/crowd/crowd_tolerances.h.

namespace waymesh::tol {

// Two agents overlap (for the summary and the benchmark) when their discs intersect by more than
// this fraction of the smaller radius.
inline constexpr float kCrowdOverlapFraction = 0.1f;
// An agent's centre closer to a wall than its radius by more than this (metres) is a wall
// penetration.
inline constexpr float kCrowdWallPenetration = 0.01f;
// A reported position counts as on the surface when the nearest surface point is within this
// (metres, 3D).
inline constexpr float kCrowdOnSurface = 1e-3f;

}  // namespace waymesh::tol
