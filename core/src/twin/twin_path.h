#pragma once
// Exact FindPath through the map's plan twin (waymesh/core/plan_twin.h): the interval search
// runs over the twin's few large polygons, and its answer is carried back to the map by
// walking each leg over the map's own polygons, which gives the corridor and the polygon each
// waypoint continues on. Waypoints are turn corners, which the twin shares with the map at
// their heights, so the path and its length are the map's.
//
// A version of the map an obstacle layer carved searches the twin of the map it was cut from
// (its polygons found through their origins) and walks the answer over its own polygons:
// carving only takes surface away, so the twin's shortest path is a lower bound, and one that
// walks through the version without meeting an obstacle is the version's shortest. Paths the
// obstacles block are searched on the version itself; no index is rebuilt when a layer
// changes.

#include "exact/exact_search.h"
#include "query_context.h"
#include "waymesh/core/path_result.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/query_interrupt.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal::twin {

// Searches the twin when ctx has one (QueryContext::exact_twin) and sets *found. When the
// search found a path, fills out's corridor, waypoints, end and length for the map and sets
// *built. False when the twin cannot answer (none; a carved version whose obstacles gave the
// filter new surface; a leg that cannot be walked on the map, blocked by an obstacle or to
// float precision): the caller then searches the map itself.
bool FindOnTwin(QueryContext& ctx, const SurfacePoint& start, const SurfacePoint& goal,
                const QueryFilter& filter, uint32_t max_nodes, QueryInterrupt* interrupt,
                exact::ExactOutcome* found, PathResult* out, bool* built);

}  // namespace waymesh::internal::twin
