#pragma once
// The geometric tolerances of core (the map model and its queries), with their units. Each
// layer keeps its own next to it: loader/mesh/include/waymesh/mesh/tolerances.h (import, repair,
// compiled maps), waymesh/bake/bake_tolerances.h, waymesh/diff/diff_tolerances.h,
// bench/vs_detour/bench_tolerances.h, and the server's move judgement in move_judge.h.

namespace waymesh::tol {

// Most corners a polygon of a map may have (the map format's limit; carving keeps to it too).
inline constexpr int kMaxVertsPerPolyLimit = 64;
// Coordinates beyond this magnitude are rejected as absurd input (metres).
inline constexpr float kMaxCoordinate = 1e6f;

// --- Queries ---
// A nearest-polygon search stops at a candidate this close to the query point (metres): the
// point lies on that surface, and another can be nearer only by float noise.
inline constexpr float kOnSurface = 1e-4f;
// A point counts as inside a polygon (plan view) when it is at most this far outside an edge
// (metres); absorbs float rounding of points computed on shared edges.
inline constexpr float kInsidePolygon = 1e-4f;
// Portals shorter than this (metres) are treated as a single point by the funnel.
inline constexpr float kZeroPortal = 1e-6f;
// Squared plan-view distance (m²) under which two funnel points are the same point.
inline constexpr float kSamePointSq = 1e-12f;
// Relative difference of ray parameters under which two polygon edges are crossed at the same
// point (collinear edges); the edge whose segment holds the point wins.
inline constexpr float kRayExitTie = 1e-5f;
// A point closer than this to a wall (metres, plan view) is on it: the direction away from the
// wall is then the wall's inward normal, not the (vanishing) difference of the two points.
inline constexpr float kOnWall = 1e-6f;
// A path refinement pass stops when it shortens the path by less than this fraction.
inline constexpr double kRefineMinGain = 1e-6;

}  // namespace waymesh::tol
