#pragma once
// Circling (the MMO server paper's avoidance): when the move predicted for the next tick would
// run into another agent or a wall, turn the heading by +a and -a (a = 10°, 20°, ...) until a
// predicted move is free and take it; then ease the heading back towards the path by one step
// per tick, and re-plan once the way along the path is clear again.

#include <span>

#include "crowd/agent.h"

namespace waymesh::crowd::internal {

// The velocity of a circling agent that wants `wanted` (its path direction at its speed);
// zero when every heading is blocked. Updates agent.detouring and sets *way_clear when a
// detour just ended (the agent should re-plan). `neighbours` index `snaps`.
V2 CirclingVelocity(const CrowdOptions& options, float dt, V2 wanted,
                    std::span<const AgentSnap> snaps, std::span<const uint32_t> neighbours,
                    Agent& agent, bool* way_clear);

}  // namespace waymesh::crowd::internal
