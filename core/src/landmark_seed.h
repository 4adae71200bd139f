#pragma once
// Where landmark tables start sampling: a point inside a polygon, and the home polygon of the
// map's largest island (landmark_table.h, exact_landmark_table.h).

#include <cstdint>

#include "query_context.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal {

// A surface point inside global polygon `global` (its first detail triangle's centroid).
SurfacePoint PointIn(const QueryContext& ctx, uint32_t global);

// First polygon (global index) of the island with the largest walkable area.
uint32_t SeedPolygon(const QueryContext& ctx);

}  // namespace waymesh::internal
