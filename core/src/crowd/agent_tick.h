#pragma once
// One agent's part of a tick: its goal, a path when it was granted one, its wanted velocity,
// avoidance (ORCA or circling) and repulsion, the move along the surface clear of walls, and
// the bookkeeping after it (corridor, corners, arrival, progress). Reads other agents only
// from the snapshot; writes only its own agent.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "crowd/agent.h"
#include "crowd/neighbour_grid.h"
#include "crowd/orca_solver.h"
#include "waymesh/core/move_result.h"
#include "waymesh/core/nav_query.h"

namespace waymesh::crowd::internal {

// What one worker of a tick owns: its NavQuery (never shared between threads) and scratch.
struct Worker {
  std::unique_ptr<NavQuery> query;
  MoveResult move;
  std::vector<WallSegment> walls;
  std::vector<HalfPlane> planes = std::vector<HalfPlane>(kMaxHalfPlanes);
  std::vector<HalfPlane> projected = std::vector<HalfPlane>(kMaxHalfPlanes);
};


// The tick's shared, read-only inputs (apart from `agents`, of which each call writes one).
struct TickInputs {
  const CrowdOptions& options;
  float dt;
  std::span<Agent> agents;
  std::span<const AgentSnap> snaps;
  const NeighbourGrid& grid;
  float max_radius;  // of every agent
};

// Advances agent `slot` by one tick.
void TickAgent(const TickInputs& in, Worker& worker, uint32_t slot);

}  // namespace waymesh::crowd::internal
