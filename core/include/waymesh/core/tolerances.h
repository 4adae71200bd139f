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

// --- Move validation (server: ValidateMove) ---
// A move is VALID when the position reached along the surface is within this plan-view
// distance of the claimed destination, unless the request sets its own tolerance (metres).
inline constexpr float kDefaultMoveTolerance = 0.05f;
// The reached position and the surface under the claimed destination are on different floors
// when their heights differ by more than this (metres); floors one above another are at least
// an agent height apart, ramps and steps at one spot never differ by this much.
inline constexpr float kWrongFloorHeight = 1.0f;

}  // namespace waymesh::tol
