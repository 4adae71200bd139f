#pragma once
// The polygons reachable from a point without leaving a disc around it (plan view): a neighbour
// is entered only through a shared edge that comes within the radius of the centre. Visited in
// Dijkstra order of Detour's findPolysAroundCircle cost (the distance from the entry point of a
// polygon to the midpoint of the portal it is left by, times that polygon's area cost), so the
// nearest polygons come first. Random points in a circle, polygons in a circle and the
// distance to the nearest wall all walk this one flood.

#include <cstdint>

#include "absl/functional/function_ref.h"
#include "query_context.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal {

struct DiscFlood {
  Vec3 center;
  // Squared radius (m², plan view). A visitor may lower it: portals beyond the new radius are
  // no longer entered (polygons already queued are still visited).
  float radius_sq = 0;
  // The node pool (NavQueryOptions::max_nodes) ran out: some reachable polygons were left out.
  bool node_limit = false;
};

// Floods from the polygon of `center` (an existing polygon the caller has checked; the filter
// is not asked about it). For each polygon in cost order calls visit(node) with its node in
// ctx.pool (g: cost from the centre; parent, via: how it was entered); visit returns false to
// stop. After the call, ctx.pool holds every polygon reached, visited or not.
void FloodDisc(QueryContext& ctx, const QueryFilter& filter, const SurfacePoint& center,
               DiscFlood* flood, absl::FunctionRef<bool(uint32_t node)> visit);

// Where the flood entered the polygon of `node`: the midpoint of the portal it came through,
// or the centre for the first polygon.
Vec3 FloodEntryPoint(const QueryContext& ctx, const SearchNode& node, Vec3 center);

}  // namespace waymesh::internal
