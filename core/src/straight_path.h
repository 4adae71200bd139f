#pragma once
// Turns the corridor in ctx.steps into waypoints: funnel per stretch between off-mesh links,
// optional clearance at wall corners, optional area-crossing points, waypoint limit.

#include "query_context.h"
#include "waymesh/core/path_result.h"
#include "waymesh/core/query_filter.h"

namespace waymesh::internal {

// Fills out->corridor, out->waypoints and out->length from ctx.steps, the start point (in the
// first polygon) and the end point (in the last polygon); ctx.corners describes the waypoints.
// Ignores options.max_waypoints (see ApplyWaypointLimit).
void BuildStraightPath(QueryContext& ctx, Vec3 start, Vec3 end, const QueryFilter& filter,
                       const PathOptions& options, PathResult* out);

// Cuts the waypoints to options.max_waypoints, setting out->truncated.
void ApplyWaypointLimit(const PathOptions& options, PathResult* out);

// Whether the vertex at `corner` of polygon `poly` touches a wall or a polygon the filter
// rejects (walking the fan of polygons around it).
bool IsWallCorner(const QueryContext& ctx, const QueryFilter& filter, PolyIndex poly,
                  uint32_t corner);

// 3D length of a waypoint polyline.
double PolylineLength(const std::vector<Waypoint>& waypoints);

}  // namespace waymesh::internal
