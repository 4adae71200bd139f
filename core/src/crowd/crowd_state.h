#pragma once
// Everything a Crowd owns. Agents live in dense slots (removal moves the last agent into the
// hole); `order` lists the slots by id, the order of every step that is not per agent.

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "crowd/agent.h"
#include "crowd/agent_tick.h"
#include "crowd/neighbour_grid.h"
#include "crowd/surround.h"

namespace waymesh::crowd::internal {

struct CrowdState {
  std::shared_ptr<const NavMap> map;
  CrowdOptions options;
  std::vector<Agent> agents;
  absl::flat_hash_map<AgentId, uint32_t> slot_of;
  std::vector<uint32_t> order;  // slots by ascending id
  // Slots in the order the per-agent passes visit them: by neighbour-grid cell (see Step).
  std::vector<uint32_t> visit;
  bool links_dirty = true;  // Agent::other_slot must be resolved again
  std::vector<AgentSnap> snaps;
  NeighbourGrid grid;
  SurroundGroups surround;
  std::vector<Worker> workers;  // [0] also serves commands between ticks
  std::vector<AgentUpdate> changed;
  TickStats stats;

  uint32_t SlotOf(AgentId id) const {
    const auto it = slot_of.find(id);
    return it == slot_of.end() ? kNoSlot : it->second;
  }
  // Worker 0's query (created on first use).
  NavQuery& query();
  // At least `count` workers, each with a query on the current map.
  void EnsureWorkers(uint32_t count);
};

}  // namespace waymesh::crowd::internal
