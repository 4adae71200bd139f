#include "crowd/surround.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace waymesh::crowd::internal {
namespace {

// Space (metres) between neighbouring slots of a ring, and between the centre's agent and the
// first ring.
constexpr float kRingGap = 0.4f;
// Rings tried round one centre; members beyond their slots head for the centre.
constexpr int kMaxRings = 6;
// A chased agent that moved this far (metres) from where its rings were made gets new ones.
constexpr float kRingFollowDistance = 0.5f;
// Slots are handed out anew at most this often (seconds) for members stuck on their way.
constexpr float kReassignSeconds = 2.0f;
// A slot the straight walk from the centre misses by more than this (metres) is behind a wall.
constexpr float kSlotReachSlack = 0.05f;

}  // namespace

SurroundGroups::Key SurroundGroups::KeyOf(const Agent& agent) {
  if (agent.goal_kind == GoalKind::kChase) return Key{true, agent.other, 0.0f, 0.0f, 0.0f};
  return Key{false, 0, agent.target.x, agent.target.y, agent.target.z};
}

void SurroundGroups::Join(Agent& agent) {
  Leave(agent);
  if (agent.goal_kind != GoalKind::kChase && agent.goal_kind != GoalKind::kPoint) return;
  const Key key = KeyOf(agent);
  auto [it, inserted] = index_.try_emplace(key, 0);
  if (inserted) {
    if (free_.empty()) {
      it->second = uint32_t(groups_.size());
      groups_.emplace_back();
    } else {
      it->second = free_.back();
      free_.pop_back();
    }
    Group& g = groups_[it->second];
    g.key = key;
    g.members.clear();
    g.slots.clear();
  }
  Group& g = groups_[it->second];
  g.members.insert(std::upper_bound(g.members.begin(), g.members.end(), agent.id), agent.id);
  g.dirty = true;
  agent.group = int32_t(it->second);
}

void SurroundGroups::Leave(Agent& agent) {
  agent.has_slot = false;
  if (agent.group < 0) return;
  Group& g = groups_[uint32_t(agent.group)];
  const auto it = std::lower_bound(g.members.begin(), g.members.end(), agent.id);
  if (it != g.members.end() && *it == agent.id) g.members.erase(it);
  g.dirty = true;
  if (g.members.empty()) {
    index_.erase(g.key);
    free_.push_back(uint32_t(agent.group));
  }
  agent.group = -1;
}

void SurroundGroups::Invalidate() {
  for (Group& g : groups_) g.dirty = true;
}

void SurroundGroups::Assign(NavQuery& query, float dt, std::span<Agent> agents,
                            std::span<const AgentSnap> snaps,
                            absl::FunctionRef<uint32_t(AgentId)> slot_of) {
  // Groups in index order; each group's work depends only on its own members.
  for (Group& g : groups_) {
    if (!g.members.empty()) AssignGroup(query, dt, g, agents, snaps, slot_of);
  }
}

bool SurroundGroups::FreeSpot(NavQuery& query, const SurfacePoint& centre, V2 spot, float radius,
                              const QueryFilter& filter, SurfacePoint* out) {
  if (!query.MoveAlongSurface(centre, Lift(spot, centre.pos.y), filter, &move_).ok() ||
      move_.status == QueryStatus::kStartOffMesh ||
      LengthSq2(XZ(move_.pos) - spot) > kSlotReachSlack * kSlotReachSlack) {
    return false;
  }
  *out = SurfacePoint{move_.poly, move_.pos};
  // Too close to a wall for an agent to stand there?
  return query.WallsAround(*out, radius, filter, &walls_).ok() && walls_.empty();
}

void SurroundGroups::MakeSlots(NavQuery& query, const SurfacePoint& centre, float centre_radius,
                               float member_radius, size_t wanted, const QueryFilter& filter,
                               Group& group) {
  group.slots.clear();
  group.slot_ring.clear();
  const float spacing = 2 * member_radius + kRingGap;
  for (int ring = 0; ring < kMaxRings && group.slots.size() < wanted; ++ring) {
    // Rings are two agents apart: members walk between them to the slots further round.
    const float radius = centre_radius + member_radius + kRingGap + float(ring) * 2 * spacing;
    const int count = std::max(3, int(2 * std::numbers::pi_v<float> * radius / spacing));
    // Odd rings are turned half a slot, so that their slots sit between the inner ring's.
    const float phase = (ring % 2) * 0.5f;
    for (int k = 0; k < count; ++k) {
      const float angle = 2 * std::numbers::pi_v<float> * (float(k) + phase) / float(count);
      SurfacePoint slot;
      if (FreeSpot(query, centre, XZ(centre.pos) + FromAngle(angle) * radius, member_radius, filter,
                   &slot)) {
        group.slots.push_back(slot);
        group.slot_ring.push_back(ring);
      }
    }
  }
}

bool SurroundGroups::FollowCentre(NavQuery& query, Group& g, const SurfacePoint& centre,
                                  float radius, const QueryFilter& filter, std::span<Agent> agents,
                                  absl::FunctionRef<uint32_t(AgentId)> slot_of) {
  g.slots.clear();
  for (const auto& [id, offset] : g.placed) {
    SurfacePoint slot;
    if (!FreeSpot(query, centre, XZ(centre.pos) + offset, radius, filter, &slot)) return false;
    g.slots.push_back(slot);
  }
  for (size_t i = 0; i < g.placed.size(); ++i) {
    Agent& a = agents[slot_of(g.placed[i].first)];
    a.has_slot = true;
    a.slot_goal = g.slots[i];
  }
  g.centre = centre.pos;
  return true;
}

void SurroundGroups::AssignGroup(NavQuery& query, float dt, Group& g, std::span<Agent> agents,
                                 std::span<const AgentSnap> snaps,
                                 absl::FunctionRef<uint32_t(AgentId)> slot_of) {
  const bool chase = std::get<0>(g.key);
  const Agent& first = agents[slot_of(g.members.front())];
  SurfacePoint centre;
  float centre_radius = 0;
  if (chase) {
    const uint32_t t = slot_of(std::get<1>(g.key));
    if (t == kNoSlot || !snaps[t].avoids) return;
    centre = SurfacePoint{snaps[t].poly, Lift(snaps[t].pos, snaps[t].y)};
    centre_radius = snaps[t].radius;
  } else {
    // One agent alone at its point needs no ring.
    if (g.members.size() < 2 || !first.target_on_mesh) {
      for (AgentId id : g.members) agents[slot_of(id)].has_slot = false;
      g.dirty = false;
      return;
    }
    centre = first.target_point;
  }
  // A member stuck on its way (others block it) gets the slots handed out anew from where
  // everyone stands, now and then.
  g.age += dt;
  if (!g.dirty && g.age >= kReassignSeconds) {
    for (AgentId id : g.members) g.dirty |= agents[slot_of(id)].failed_windows > 0;
  }
  if (!g.dirty && DistanceXZ(centre.pos, g.centre) < kRingFollowDistance) return;
  float member_radius = 0;
  for (AgentId id : g.members) {
    member_radius = std::max(member_radius, agents[slot_of(id)].params.radius);
  }
  if (!g.dirty &&
      FollowCentre(query, g, centre, member_radius, first.params.filter, agents, slot_of)) {
    return;
  }
  g.dirty = false;
  g.age = 0;
  g.centre = centre.pos;
  MakeSlots(query, centre, centre_radius, member_radius, g.members.size(), first.params.filter, g);

  // Slot by slot, inner rings first (every member that can stands next to the centre), each
  // slot to the nearest member without one (ties to the lower id: members are by id).
  members_.clear();
  for (AgentId id : g.members) {
    members_.push_back(slot_of(id));
    agents[members_.back()].has_slot = false;
  }
  taken_.assign(members_.size(), false);
  g.placed.clear();
  for (size_t k = 0; k < g.slots.size() && g.placed.size() < members_.size(); ++k) {
    size_t best = members_.size();
    float best_sq = INFINITY;
    for (size_t m = 0; m < members_.size(); ++m) {
      if (taken_[m]) continue;
      const float d = LengthSq2(XZ(g.slots[k].pos) - XZ(agents[members_[m]].at.pos));
      if (d < best_sq) {
        best_sq = d;
        best = m;
      }
    }
    taken_[best] = true;
    Agent& a = agents[members_[best]];
    a.has_slot = true;
    a.slot_goal = g.slots[k];
    g.placed.emplace_back(a.id, XZ(a.slot_goal.pos) - XZ(centre.pos));
  }
}

}  // namespace waymesh::crowd::internal
