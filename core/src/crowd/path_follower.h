#pragma once
// Path following: an agent plans a FindPath corridor to its goal (passing wall corners at its
// radius), steers to the next corner of the string-pulled path, keeps track of which corridor
// polygon it is in, passes corners as it gets round them, crosses off-mesh links, and notes
// when it was pushed off its corridor or stopped making progress (reasons to re-plan).

#include "crowd/agent.h"
#include "waymesh/core/nav_query.h"

namespace waymesh::crowd::internal {

// Plans the agent's path from where it is to its goal and sets its state (kMoving, or kNoPath
// when the goal cannot be reached).
void PlanPath(NavQuery& query, const CrowdOptions& options, Agent& agent);

// Where the agent heads now: its next corner, or the goal itself on the last leg.
struct SteerPoint {
  V2 pos;
  bool last = false;  // the goal: brake to stop there
};
// The point to steer to; false when the agent has no path to follow.
bool SteerTarget(const Agent& agent, SteerPoint* out);

// After a move on the surface: updates the agent's corridor position and corner, starts an
// off-mesh link it reached, and asks for a re-plan when it left its corridor or its partial
// path ran out.
void FollowCorridor(const CrowdOptions& options, float dt, Agent& agent);

// Moves an agent crossing an off-mesh link along it; lands it when it is across.
void CrossLink(float dt, Agent& agent);

// Path length (metres) from the agent's position to its goal along its path.
float RemainingLength(const Agent& agent);

}  // namespace waymesh::crowd::internal
