#pragma once
// Formation moves: a follower keeps an offset from its leader in the leader's heading frame
// (x right, z forward, as Unity's transform), pulled in along the surface where a wall is in
// the way, so the whole group walks behind the leader.

#include "crowd/agent.h"
#include "waymesh/core/move_result.h"
#include "waymesh/core/nav_query.h"

namespace waymesh::crowd::internal {

// The follower's slot behind `leader`; false when the follower may not walk where the leader
// stands (its filter rejects the leader's polygon).
bool FormationSlot(NavQuery& query, const AgentSnap& leader, Vec3 offset, const QueryFilter& filter,
                   MoveResult* scratch, SurfacePoint* out);

}  // namespace waymesh::crowd::internal
