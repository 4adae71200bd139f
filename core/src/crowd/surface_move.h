#pragma once
// Moving an agent on the surface: walked towards a point along the surface (sliding along
// walls, never leaving the mesh), then out of any wall closer than its radius.

#include "crowd/agent.h"
#include "waymesh/core/move_result.h"
#include "waymesh/core/nav_query.h"

namespace waymesh::crowd::internal {

// Where `agent` ends up walking from where it is towards `target` (plan view); its own polygon
// when the query fails (the agent then stays).
SurfacePoint SlideTo(NavQuery& query, const Agent& agent, V2 target, MoveResult* scratch);

}  // namespace waymesh::crowd::internal
