#pragma once
// Move along the surface: the reachable point closest to the target inside the disc spanned by
// the move (centre = midpoint, radius = half length), i.e. where a mover sliding along walls
// ends up. The basis of anti-cheat move validation.

#include "query_context.h"
#include "waymesh/core/move_result.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal {

// `start` must be on an existing polygon the filter accepts; `end` finite.
void MoveAlongSurfaceImpl(QueryContext& ctx, const SurfacePoint& start, Vec3 end,
                          const QueryFilter& filter, MoveResult* out);

}  // namespace waymesh::internal
