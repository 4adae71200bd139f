#pragma once
// ORCA's half-planes of permitted velocities: one per neighbour (each agent takes half of the
// change that avoids a collision within the time horizon) and one per nearby wall (the agent
// takes all of it).

#include "crowd/agent.h"
#include "crowd/orca_solver.h"

namespace waymesh::crowd::internal {

// The velocities of agent A (at `pos`, velocity `vel`) that avoid neighbour B (at `other_pos`,
// velocity `other_vel`) for `horizon` seconds, given that B takes `share` of the avoidance
// (0.5: reciprocal). Overlapping agents get the velocities that separate them within `dt`.
HalfPlane AgentHalfPlane(V2 pos, V2 vel, V2 other_pos, V2 other_vel, float combined_radius,
                         float horizon, float dt, float share);

// The velocities that keep an agent of `radius` at `pos` (velocity `vel`) at least its radius
// from `wall` for `horizon` seconds: a wall the agent faces is a line it may approach only as
// fast as the gap allows (closer than the radius, it pushes the agent out at up to `max_push`
// m/s within `dt`); a wall it is nearest to at an end is that corner, which it may pass by.
// False when the agent is behind the wall's line (only walls that face it can be reached).
bool WallHalfPlane(V2 pos, V2 vel, float radius, const WallXZ& wall, float horizon, float dt,
                   float max_push, HalfPlane* out);

// The plan-view point of segment ab closest to p.
V2 ClosestOnSegment(V2 a, V2 b, V2 p);

}  // namespace waymesh::crowd::internal
