#pragma once
// Path refinement: A* over polygons can pick a corridor that bends around a vertex that is not a
// wall; shortcutting along the surface and pulling the new corridor tight fixes that.

#include "query_context.h"
#include "waymesh/core/path_result.h"
#include "waymesh/core/query_filter.h"

namespace waymesh::internal {

// Shortens out->waypoints (and rewrites out->corridor) while the path stays on accepted
// polygons; never lengthens it.
void RefinePath(QueryContext& ctx, const QueryFilter& filter, const PathOptions& options,
                Vec3 start, Vec3 end, PathResult* out);

}  // namespace waymesh::internal
