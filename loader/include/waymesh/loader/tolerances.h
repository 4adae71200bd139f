#pragma once
// The tolerances of the loader (import, repair, compiled maps, baking, authoring tools), with
// their units; core's own are in waymesh/core/tolerances.h.

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

// --- Authoring tools (loader: validate, diff) ---
// `waymesh diff` compares polygon shapes by their corner positions rounded to this grid (m), so
// rebuilds that move a vertex by float noise still match.
inline constexpr float kDiffCornerRounding = 1e-3f;
// A change of total walkable area smaller than this (m²) is rounding, not a change.
inline constexpr double kDiffAreaChange = 1e-3;
// A sample point of one map finds its polygon in the other map within this plan-view distance
// (m) and this height (m); farther means the surface is gone there.
inline constexpr float kDiffSampleReachXZ = 0.25f;
inline constexpr float kDiffSampleReachY = 1.0f;

// --- Baking (loader: waymesh bake) ---
// A simplified contour may stray this far from the voxel outline it follows (voxels; Recast's
// usual 1.3 keeps walls within a voxel and a bit).
inline constexpr float kBakeContourMaxError = 1.3f;
// Contour edges along walls longer than this are split (metres), so long corridors still get
// polygons of a sensible size.
inline constexpr float kBakeMaxEdgeLength = 12.0f;
// The detail mesh samples heights every this many voxels inside a polygon and along its edges
// (Recast's demo uses 6; 3 keeps terrain heights within a few centimetres of the geometry).
inline constexpr float kBakeDetailSampleVoxels = 3.0f;
// The detail mesh may deviate from the voxel surface by this many cell heights.
inline constexpr float kBakeDetailMaxErrorCells = 1.0f;
// Baked tiles overlap at their seams: their vertices are welded and T-junctions split within
// this fraction of the voxel size (capped by kDefaultWeld), far below the distance of two
// distinct voxel corners.
inline constexpr float kBakeSeamWeldVoxels = 0.25f;
// The two tiles of a seam sample its heights from their own regions: the same seam point may
// differ by up to this many cell heights between them (each side's detail error plus voxel
// layering). Seam vertices that close are joined, and seam T-junctions split within it.
inline constexpr float kBakeSeamHeightCells = 3.0f;
// Seam T-junctions never reach farther than the larger of this fraction of the voxel size and
// this fraction of the agent radius: distinct walkable surfaces are at least two eroded radii
// (and, without erosion, a voxel) apart, so they are never stitched together.
inline constexpr float kBakeSeamTJunctionVoxels = 0.9f;
inline constexpr float kBakeSeamTJunctionRadius = 0.5f;

// --- Crowd runs (crowd_run.h) ---
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
