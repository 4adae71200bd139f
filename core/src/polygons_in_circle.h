#pragma once
// Polygons in a circle: the disc flood (disc_flood.h) from the centre, recorded in cost order
// up to a count, as Detour's findPolysAroundCircle does.

#include <cstdint>

#include "query_context.h"
#include "waymesh/core/polygons_in_circle.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal {

// `center` must be on an existing polygon the filter accepts; radius finite and > 0;
// max_polygons > 0. Sets every field of `out` (status kComplete).
void PolygonsInDisc(QueryContext& ctx, const SurfacePoint& center, float radius,
                    const QueryFilter& filter, uint32_t max_polygons, PolygonsInCircle* out);

// The result for a centre that is on no polygon the filter accepts: status kStartOffMesh,
// no polygons.
void PolygonsInCircleOffMesh(PolygonsInCircle* out);

}  // namespace waymesh::internal
