#pragma once
// The last step of a tick: agents that still overlap after everyone moved (a crowd too dense
// for every agent to avoid everyone, agents squeezed by walls) are pushed apart at once, each
// by half of the overlap beyond a small slack, along the surface and never into a wall, as
// DetourCrowd's collision resolution does. Reads the others from a snapshot taken after the
// move; writes only its own agent.

#include <cstdint>

#include "crowd/agent_tick.h"

namespace waymesh::crowd::internal {

// Pushes agent `slot` out of the agents of `in.snaps` (their positions after the move) it
// overlaps by more than the slack.
void ResolveOverlaps(const TickInputs& in, Worker& worker, uint32_t slot);

}  // namespace waymesh::crowd::internal
