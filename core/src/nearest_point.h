#pragma once
// Nearest surface point: grid + BV candidates in a box, exact closest point per polygon.

#include <optional>

#include "query_context.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal {

// The surface point closest to `pos` (3D distance to the plan-view closest point lifted onto
// the surface) among accepted polygons overlapping pos ± half_extents. Inputs must be finite.
std::optional<SurfacePoint> NearestPoint(const QueryContext& ctx, Vec3 pos, Vec3 half_extents,
                                            const QueryFilter& filter);

}  // namespace waymesh::internal
