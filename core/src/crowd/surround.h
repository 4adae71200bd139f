#pragma once
// Surround: agents chasing the same agent, or sent to exactly the same point, spread over free
// slots on rings round it instead of stacking on one spot (the long-standing complaint about
// MMO mobs). Slots lie on the surface, reachable in a straight line from the centre and at
// least the agents' radius from walls; each member takes the free slot nearest to it, nearest
// members first. Rings move with a chased agent.

#include <cstdint>
#include <span>
#include <tuple>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "crowd/agent.h"
#include "waymesh/core/move_result.h"
#include "waymesh/core/nav_query.h"

namespace waymesh::crowd::internal {

class SurroundGroups {
 public:
  // Puts `agent` into the group of its goal (kChase, or kPoint); leaves its old group first.
  void Join(Agent& agent);
  // Takes `agent` out of its group (its slot is dropped).
  void Leave(Agent& agent);
  // Every group hands its slots out again at the next Assign (the map changed).
  void Invalidate();
  // Moves rings with their centres and hands out slots; sets the members' has_slot and
  // slot_goal. Runs once a tick (of `dt` seconds) before its parallel part. `slot_of` maps
  // ids to agent slots (kNoSlot when gone).
  void Assign(NavQuery& query, float dt, std::span<Agent> agents, std::span<const AgentSnap> snaps,
              absl::FunctionRef<uint32_t(AgentId)> slot_of);

 private:
  using Key = std::tuple<bool, AgentId, float, float, float>;  // chase?, target id, point
  struct Group {
    Key key;
    std::vector<AgentId> members;  // ascending
    std::vector<SurfacePoint> slots;
    std::vector<int> slot_ring;  // parallel to slots: 0 innermost
    // Each member's slot as an offset from the centre (plan view), so that rings follow a
    // chased agent without handing the slots out anew.
    std::vector<std::pair<AgentId, V2>> placed;
    Vec3 centre;  // where the slots were made
    bool dirty = true;
    float age = 0;  // seconds since the slots were handed out
  };

  static Key KeyOf(const Agent& agent);
  void AssignGroup(NavQuery& query, float dt, Group& group, std::span<Agent> agents,
                   std::span<const AgentSnap> snaps, absl::FunctionRef<uint32_t(AgentId)> slot_of);
  void MakeSlots(NavQuery& query, const SurfacePoint& centre, float centre_radius,
                 float member_radius, size_t wanted, const QueryFilter& filter, Group& group);
  // The surface point at `spot` when an agent of `radius` can stand there and reach it from
  // the centre in a straight line.
  bool FreeSpot(NavQuery& query, const SurfacePoint& centre, V2 spot, float radius,
                const QueryFilter& filter, SurfacePoint* out);
  // Moves every member's slot with the centre; false (nothing changed) when a slot would land
  // where no agent can stand.
  bool FollowCentre(NavQuery& query, Group& group, const SurfacePoint& centre, float radius,
                    const QueryFilter& filter, std::span<Agent> agents,
                    absl::FunctionRef<uint32_t(AgentId)> slot_of);

  absl::flat_hash_map<Key, uint32_t> index_;
  std::vector<Group> groups_;
  std::vector<uint32_t> free_;
  // Scratch, reused.
  MoveResult move_;
  std::vector<WallSegment> walls_;
  std::vector<uint32_t> members_;  // agent slots of a group's members
  std::vector<bool> taken_;
};

}  // namespace waymesh::crowd::internal
