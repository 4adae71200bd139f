#pragma once
// Each agent keeps the wall segments around it, read once with NavQuery::WallsAround over a
// disc a little larger than it needs, and re-read only after it has walked out of that margin
// (or the map changed): walls are never queried every tick.

#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "crowd/agent.h"
#include "waymesh/core/nav_query.h"

namespace waymesh::crowd::internal {

// How far from its centre (metres, plan view) walls matter to an agent: its radius plus what
// it covers within the wall horizon, plus its radius again for the push-out after a move.
float WallRange(const CrowdOptions& options, const AgentParams& params);

// Re-reads the agent's walls when they are invalid or it moved more than the slack from where
// they were read; true when it did. `scratch` is the worker's buffer.
absl::StatusOr<bool> RefreshWalls(NavQuery& query, const CrowdOptions& options, Agent& agent,
                                  std::vector<WallSegment>* scratch);

// `pos` moved out of every wall it faces that is closer than `radius` (a few passes, for
// corners).
V2 PushOutOfWalls(V2 pos, float radius, std::span<const WallXZ> walls);

}  // namespace waymesh::crowd::internal
