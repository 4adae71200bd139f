#pragma once
// FindPath's first try, before any search: a goal in plain sight of the start.
//
// When the plan-view segment from start to goal crosses only polygons the filter accepts and
// ends in the goal's polygon, and every polygon on it costs the cheapest rate any path can
// have (QueryContext::HeuristicScale, which counts off-mesh links too), no path is cheaper:
// any path costs at least that rate times its length, and no path is shorter than the
// segment. Such a query then costs one raycast instead of an A* search. On maps with cheaper
// areas (roads) a line not all on them is not provably cheapest and is searched for.

#include "query_context.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal {

// True when the segment start -> goal is the cheapest path under `filter`; the corridor it
// crosses is then in ctx.steps (start polygon first, goal polygon last). False otherwise, with
// ctx.steps unspecified. Both points must be on polygons the filter accepts.
bool FindLineOfSightCorridor(QueryContext& ctx, const SurfacePoint& start, const SurfacePoint& goal,
                             const QueryFilter& filter);

// The same test against a given `rate`, the lowest cost per metre of any walk the caller would
// search otherwise (a search kept inside a cluster: ClusterGraph::CheapestRate): true when the
// segment crosses only polygons of that cost, with its corridor in ctx.steps.
bool FindStraightCorridorAt(QueryContext& ctx, const SurfacePoint& start, const SurfacePoint& goal,
                            const QueryFilter& filter, float rate);

}  // namespace waymesh::internal
