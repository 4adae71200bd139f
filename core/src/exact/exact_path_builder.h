#pragma once
// Turns the outcome of the interval search into a PathResult: the corridor of polygons the
// path crosses, the waypoints (start, the corners it turns at, the end) and the length.

#include "exact/exact_search.h"
#include "query_context.h"
#include "waymesh/core/path_result.h"

namespace waymesh::internal::exact {

// Fills out->corridor, waypoints, length, end (a partial path ends on the interval closest to
// the goal) from `found` (status kComplete or kPartial, `last` set) in ctx.exact.
void BuildExactPath(QueryContext& ctx, const ExactOutcome& found, const SurfacePoint& goal,
                    PathResult* out);

}  // namespace waymesh::internal::exact
