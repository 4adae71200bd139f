#pragma once
// The tolerances shared by the loader's stages (import, repair, compiled maps), with their units.
// Core's own are in waymesh/core/tolerances.h; baking's in waymesh/bake/bake_tolerances.h;
// `waymesh diff`'s in waymesh/diff/diff_tolerances.h.

#include "waymesh/core/tolerances.h"

namespace waymesh::tol {

// --- Import and repair ---
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
// Triangles whose unit normal has a smaller |y| than this are vertical walls, not floor (about
// 89.4 degrees from horizontal); the repair pipeline drops them.
inline constexpr float kMinFloorNormalY = 0.01f;
// An off-mesh link end attaches to a floor at most (link radius + this) above or below it (m).
inline constexpr float kOffMeshLinkHeight = 0.25f;
// Largest weld, T-junction or merge-height tolerance the repair pipeline accepts (metres).
inline constexpr float kMaxRepairTolerance = 10.0f;

// --- Compiled map ---
// A tile whose bounds are smaller than this on every axis (metres) is a point: its BV tree
// quantizes with factor 1 instead of dividing by a vanishing extent.
inline constexpr float kMinBvQuantExtent = 1e-6f;

}  // namespace waymesh::tol
