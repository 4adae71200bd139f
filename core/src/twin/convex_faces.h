#pragma once
// Hertel-Mehlhorn merging of a tile's thinned plan triangles (plan_triangles.h) into convex
// polygons for the exact search's twin: across the longest inner edge of one region first,
// while the union stays convex (straight corners allowed) and within the corner limit.

#include <cstdint>
#include <vector>

#include "twin/plan_triangles.h"

namespace waymesh::twin {

struct ConvexFace {
  std::vector<uint32_t> corners;  // tile vertex ids, map winding
  uint32_t group = 0;
  uint32_t island = 0;
  std::vector<uint32_t> sources;  // the tile's polygons it shares plan area with, sorted
};

std::vector<ConvexFace> MergeConvexFaces(const TileView& tile, const PlanTriangles& triangles);

}  // namespace waymesh::twin
