#include "crowd/repulsion.h"

#include <cmath>
#include <numbers>

#include "crowd/orca_lines.h"
#include "waymesh/core/crowd/crowd_tolerances.h"

namespace waymesh::crowd::internal {
namespace {

// A push counts on an axis when its unit direction has at least this component there.
constexpr float kAxisShare = 0.05f;
// Pushers from which the per-axis resolution applies (the paper's "three or more").
constexpr int kCrowdedPushers = 3;
// Centres closer than this (metres) have no direction between them.
constexpr float kSameSpot = 1e-6f;

// A fixed direction between two agents on the same spot, opposite for the two of them.
V2 TieBreakDirection(AgentId self, AgentId other) {
  const uint32_t lo = self < other ? self : other, hi = self < other ? other : self;
  const uint32_t mix = (lo * 2654435761u) ^ (hi * 2246822519u);
  const V2 d = FromAngle(float(mix % 3600u) * (std::numbers::pi_v<float> / 1800.0f));
  return self < other ? d : -d;
}

}  // namespace

V2 RepulsionVelocity(const CrowdOptions& options, float dt, const Agent& agent,
                     std::span<const AgentSnap> snaps, std::span<const uint32_t> neighbours) {
  const V2 pos = XZ(agent.at.pos);
  V2 sum;
  int pushers = 0;
  bool pos_x = false, neg_x = false, pos_z = false, neg_z = false;
  for (uint32_t j : neighbours) {
    const AgentSnap& o = snaps[j];
    if (o.chases && o.chased == agent.id) continue;  // its chasers move, not it
    const float reach = agent.params.radius + o.radius - tol::kCrowdContactSlack;
    const V2 away = pos - o.pos;
    const float d_sq = LengthSq2(away);
    if (d_sq >= reach * reach) continue;
    const float d = std::sqrt(d_sq);
    const V2 u = d > kSameSpot ? away * (1.0f / d) : TieBreakDirection(agent.id, o.id);
    sum = sum + u;
    ++pushers;
    pos_x |= u.x > kAxisShare;
    neg_x |= u.x < -kAxisShare;
    pos_z |= u.z > kAxisShare;
    neg_z |= u.z < -kAxisShare;
  }
  if (pushers == 0) return {};
  if (pushers >= kCrowdedPushers) {
    if (pos_x && neg_x) sum.x = 0;
    if (pos_z && neg_z) sum.z = 0;
  }
  V2 v = Normalized2(sum) * options.separation_speed;
  // Drop what would push the agent into a wall it is about to touch.
  const float reach = agent.params.radius + options.separation_speed * dt;
  for (uint32_t i = 0; i < agent.wall_count; ++i) {
    const WallXZ& w = agent.walls[i];
    if (Det2(w.b - w.a, pos - w.a) < 0) continue;
    const V2 away = pos - ClosestOnSegment(w.a, w.b, pos);
    const float d_sq = LengthSq2(away);
    if (d_sq > reach * reach) continue;
    const V2 n = d_sq > 0 ? away * (1.0f / std::sqrt(d_sq)) : V2{-(w.b - w.a).z, (w.b - w.a).x};
    const float into = Dot2(v, Normalized2(n));
    if (into < 0) v = v - Normalized2(n) * into;
  }
  return v;
}

}  // namespace waymesh::crowd::internal
