#pragma once
// Every geometric tolerance in Waymesh, with its unit, in one place.

namespace waymesh::tol {

// Default distance under which two exported vertices are the same point (metres).
inline constexpr float kDefaultWeld = 0.01f;
// A vertex closer than this to another polygon's edge splits it (T-junction, metres).
inline constexpr float kDefaultTJunction = 0.01f;
// Triangles with less plan-view area than this are degenerate and dropped (m²).
inline constexpr float kDegenerateArea = 1e-6f;
// Two triangles may merge into one polygon when every vertex of the result is within this
// height of the merged polygon's plane (metres).
inline constexpr float kDefaultMergeHeight = 0.02f;
// A polygon corner counts as convex when its cross product is at least this (m², plan view);
// slightly negative values are collinear points kept from T-junction splits.
inline constexpr float kConvexity = -1e-6f;
// Default edge length of a square tile (metres).
inline constexpr float kDefaultTileSize = 64.0f;
// Default maximum number of vertices of a merged polygon.
inline constexpr int kDefaultMaxVertsPerPoly = 8;
// Hard upper bound for max vertices per polygon (detail triangles index corners with a byte).
inline constexpr int kMaxVertsPerPolyLimit = 64;
// Coordinates beyond this magnitude are rejected as absurd input (metres).
inline constexpr float kMaxCoordinate = 1e6f;

// --- Repair (loader) ---
// Triangles whose unit normal has a smaller |y| than this are vertical walls, not floor (about
// 89.4 degrees from horizontal); the repair pipeline drops them.
inline constexpr float kMinFloorNormalY = 0.01f;
// An off-mesh link end attaches to a floor at most (link radius + this) above or below it (m).
inline constexpr float kOffMeshLinkHeight = 0.25f;
// Largest weld, T-junction or merge-height tolerance the repair pipeline accepts (metres).
inline constexpr float kMaxRepairTolerance = 10.0f;

// --- Queries (core) ---
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
// A path refinement pass stops when it shortens the path by less than this fraction.
inline constexpr double kRefineMinGain = 1e-6;

// --- Benchmarks (bench/) ---
// A polygon corner whose two edges turn by less than this sine (plan view; covers float jitter
// of welded exports and the slightly reflex corners kConvexity admits) is straight. The Detour
// comparison cuts polygons there: Detour's raycast leaves by the wrong one of two such edges.
inline constexpr float kCollinearSine = 1e-3f;
// Relative tolerance of the published Polyanya optimal lengths (6 significant digits): a path
// shorter than optimum * (1 - this) means a broken mesh or query.
inline constexpr double kPublishedLengthTolerance = 1e-4;
// Two raycasts of the same ray agree when their reached fractions differ by less than this.
inline constexpr float kRayFractionAgreement = 1e-3f;

// --- Compiled map (loader) ---
// A tile whose bounds are smaller than this on every axis (metres) is a point: its BV tree
// quantizes with factor 1 instead of dividing by a vanishing extent.
inline constexpr float kMinBvQuantExtent = 1e-6f;

}  // namespace waymesh::tol
