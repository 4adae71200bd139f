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

}  // namespace waymesh::tol
