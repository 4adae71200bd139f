#pragma once
// Repulsion (from the MMO server paper): agents that already overlap (a spawn on top of
// another, a gate closed on them) separate at a fixed speed along the direction away from each
// other. An agent pressed by three or more resolves the pushes per axis and cancels an axis
// pushed both ways, so a packed crowd unpacks from the outside in. Nobody is pushed into a wall.

#include <span>

#include "crowd/agent.h"

namespace waymesh::crowd::internal {

// The separation velocity of `agent` from the neighbours it overlaps (`neighbours` index
// `snaps`); zero when it overlaps nobody or its pushes cancel out.
V2 RepulsionVelocity(const CrowdOptions& options, float dt, const Agent& agent,
                     std::span<const AgentSnap> snaps, std::span<const uint32_t> neighbours);

}  // namespace waymesh::crowd::internal
