#pragma once
// The tolerances of map comparison (`waymesh diff`), with their units.

namespace waymesh::tol {

// `waymesh diff` compares polygon shapes by their corner positions rounded to this grid (m), so
// rebuilds that move a vertex by float noise still match.
inline constexpr float kDiffCornerRounding = 1e-3f;
// A change of total walkable area smaller than this (m²) is rounding, not a change.
inline constexpr double kDiffAreaChange = 1e-3;
// A sample point of one map finds its polygon in the other map within this plan-view distance
// (m) and this height (m); farther means the surface is gone there.
inline constexpr float kDiffSampleReachXZ = 0.25f;
inline constexpr float kDiffSampleReachY = 1.0f;

}  // namespace waymesh::tol
