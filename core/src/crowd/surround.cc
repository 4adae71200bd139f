#include "crowd/surround.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace waymesh::crowd::internal {
namespace {

// Space (metres) between neighbouring slots of a ring, and between the centre's agent and the
// first ring.
constexpr float kRingGap = 0.2f;
// Rings tried round one centre; members beyond their slots head for the centre.
constexpr int kMaxRings = 6;
// A chased agent that moved this far (metres) from where its rings were made gets new ones.
constexpr float kRingFollowDistance = 0.5f;
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

void SurroundGroups::Assign(NavQuery& query, std::span<Agent> agents,
                            std::span<const AgentSnap> snaps,
                            absl::FunctionRef<uint32_t(AgentId)> slot_of) {
  // Groups in index order; each group's work depends only on its own members.
  for (Group& g : groups_) {
    if (!g.members.empty()) AssignGroup(query, g, agents, snaps, slot_of);
  }
}

void SurroundGroups::MakeSlots(NavQuery& query, const SurfacePoint& centre, float centre_radius,
                               float member_radius, size_t wanted, const QueryFilter& filter,
                               Group& group) {
  group.slots.clear();
  const float spacing = 2 * member_radius + kRingGap;
  for (int ring = 0; ring < kMaxRings && group.slots.size() < wanted; ++ring) {
    const float radius = centre_radius + member_radius + kRingGap + float(ring) * spacing;
    const int count = std::max(3, int(2 * std::numbers::pi_v<float> * radius / spacing));
    // Odd rings are turned half a slot, so that their slots sit between the inner ring's.
    const float phase = (ring % 2) * 0.5f;
    for (int k = 0; k < count; ++k) {
      const float angle = 2 * std::numbers::pi_v<float> * (float(k) + phase) / float(count);
      const V2 spot = XZ(centre.pos) + FromAngle(angle) * radius;
      if (!query.MoveAlongSurface(centre, Lift(spot, centre.pos.y), filter, &move_).ok() ||
          move_.status == QueryStatus::kStartOffMesh ||
          LengthSq2(XZ(move_.pos) - spot) > kSlotReachSlack * kSlotReachSlack) {
        continue;
      }
      const SurfacePoint slot{move_.poly, move_.pos};
      if (!query.WallsAround(slot, member_radius, filter, &walls_).ok() || !walls_.empty()) {
        continue;  // too close to a wall for an agent to stand there
      }
      group.slots.push_back(slot);
    }
  }
}

void SurroundGroups::AssignGroup(NavQuery& query, Group& g, std::span<Agent> agents,
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
  if (!g.dirty && DistanceXZ(centre.pos, g.centre) < kRingFollowDistance) return;
  g.dirty = false;
  g.centre = centre.pos;
  float member_radius = 0;
  for (AgentId id : g.members)
    member_radius = std::max(member_radius, agents[slot_of(id)].params.radius);
  MakeSlots(query, centre, centre_radius, member_radius, g.members.size(), first.params.filter, g);

  // Nearest members first, each to the free slot nearest to it.
  order_.clear();
  for (AgentId id : g.members) {
    const uint32_t s = slot_of(id);
    order_.emplace_back(DistanceXZ(agents[s].at.pos, centre.pos), s);
  }
  std::sort(order_.begin(), order_.end(), [&](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : agents[a.second].id < agents[b.second].id;
  });
  taken_.assign(g.slots.size(), false);
  for (const auto& [dist, s] : order_) {
    Agent& a = agents[s];
    int best = -1;
    float best_sq = INFINITY;
    for (size_t k = 0; k < g.slots.size(); ++k) {
      if (taken_[k]) continue;
      const float d = LengthSq2(XZ(g.slots[k].pos) - XZ(a.at.pos));
      if (d < best_sq) {
        best_sq = d;
        best = int(k);
      }
    }
    a.has_slot = best >= 0;
    if (best >= 0) {
      taken_[size_t(best)] = true;
      a.slot_goal = g.slots[size_t(best)];
    }
  }
}

}  // namespace waymesh::crowd::internal
