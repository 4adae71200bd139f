#pragma once
// The tolerances of baking navmeshes from level geometry with Recast, with their units.

namespace waymesh::tol {

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

}  // namespace waymesh::tol
