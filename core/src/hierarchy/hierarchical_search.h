#pragma once
// Long path searches over the map's cluster graph (cluster_graph.h): the start and the goal
// are joined to their clusters' entrances by floods inside those clusters, the abstract route
// is searched over the entrances (abstract_route.h), and each leg is refined by the polygon A*
// kept inside the leg's cluster; the legs' corridors are joined (loops cut) into ctx.steps for
// the usual string pulling. The searched polygons are about the route's, not the whole ellipse
// a plain search opens.

#include <cstdint>
#include <optional>

#include "path_search.h"
#include "query_context.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/query_interrupt.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal {

// Ends closer than this (plan view, metres) are searched plainly: a plain search is quick
// there and the floods that join the ends to the graph would cost more.
inline constexpr float kHierarchyMinDistance = 50.0f;

// Whether a search from `start` to `goal` under `filter` should go through the cluster graph:
// the map has one measured for `filter`, the ends are at least kHierarchyMinDistance apart in
// clusters that are neither the same nor neighbours, and no obstacle carved either cluster.
bool UsesHierarchy(const QueryContext& ctx, const SurfacePoint& start, const SurfacePoint& goal,
                   const QueryFilter& filter);

// What a hierarchical search spent of a query's node limit, whether it answered or not.
struct NodesSpent {
  uint32_t created = 0;   // nodes created by all leg searches (what max_nodes limits)
  uint32_t expanded = 0;  // nodes they took from their open lists
};

// The hierarchical search (UsesHierarchy must hold), creating at most `max_nodes` nodes over
// all its leg searches (each leg gets what the earlier ones left): a complete corridor in
// ctx.steps; a partial one (`limit_hit`) along the route when a leg ran out of nodes; or an
// outcome whose `stop` is the interrupt's status. nullopt when the route cannot be refined here
// (no abstract route, a leg crosses a carved cluster or a leg search did not reach its end):
// the caller then searches plainly with what is left of `max_nodes` (see *spent), so the answer is
// never a wrong NO_PATH and the node limit holds for the whole query.
std::optional<SearchOutcome> SearchHierarchical(QueryContext& ctx, const SurfacePoint& start,
                                                const SurfacePoint& goal, const QueryFilter& filter,
                                                uint32_t max_nodes, QueryInterrupt* interrupt,
                                                NodesSpent* spent);

}  // namespace waymesh::internal
