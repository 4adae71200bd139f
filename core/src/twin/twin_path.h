#pragma once
// Exact FindPath through the map's plan twin (waymesh/core/plan_twin.h): the interval search
// runs over the twin's few large polygons, and its answer is carried back to the map by
// walking each leg over the map's own polygons, which gives the corridor and the polygon each
// waypoint continues on. Waypoints are turn corners, which the twin shares with the map at
// their heights, so the path and its length are the map's.

#include "exact/exact_search.h"
#include "query_context.h"
#include "waymesh/core/path_result.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/query_interrupt.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal::twin {

// Searches the twin when ctx has one (QueryContext::exact_twin) and sets *found. When the
// search found a path, fills out's corridor, waypoints, end and length for the map and sets
// *built. False when the twin cannot answer (none, or a leg that cannot be walked on the map
// to float precision): the caller then searches the map itself.
bool FindOnTwin(QueryContext& ctx, const SurfacePoint& start, const SurfacePoint& goal,
                const QueryFilter& filter, uint32_t max_nodes, QueryInterrupt* interrupt,
                exact::ExactOutcome* found, PathResult* out, bool* built);

}  // namespace waymesh::internal::twin
