#pragma once
// Raycast along the surface: walks the polygons a plan-view segment crosses through their
// adjacency (so stacked floors never mix) until a wall or a rejected polygon stops it.

#include "query_context.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/raycast_result.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal {

// `start` must be on an existing polygon; `end` finite. Always sets out->status = kComplete.
void RaycastAlongSurface(const QueryContext& ctx, const SurfacePoint& start, Vec3 end,
                         const QueryFilter& filter, RaycastResult* out);

// Where the plan-view ray start + s * d (s >= 0) leaves convex polygon `poly`: the smallest
// exit parameter and the corner index of the crossed edge (edge i -> i+1); s = +inf and
// *edge = -1 when the ray never leaves (d = 0).
float RayExit(const TileView& tile, uint32_t poly, Vec3 start, Vec3 d, int* edge);

}  // namespace waymesh::internal
