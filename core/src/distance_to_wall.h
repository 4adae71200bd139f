#pragma once
// Distance to the nearest wall: the disc flood (disc_flood.h) from the centre, shrinking its
// radius to each closer wall it meets, as Detour's findDistanceToWall does.

#include "query_context.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/surface_point.h"
#include "waymesh/core/wall_distance.h"

namespace waymesh::internal {

// `center` must be on an existing polygon the filter accepts; max_radius finite and > 0.
// Sets every field of `out` (status kComplete).
void DistanceToWall(QueryContext& ctx, const SurfacePoint& center, float max_radius,
                    const QueryFilter& filter, WallDistance* out);

// The result for a centre that is on no polygon the filter accepts: status kStartOffMesh,
// nothing found.
void WallDistanceOffMesh(Vec3 center, float max_radius, WallDistance* out);

}  // namespace waymesh::internal
