#include "crowd/overlap_resolution.h"

#include <cmath>

#include "crowd/surface_move.h"
#include "waymesh/core/crowd/crowd_tolerances.h"

namespace waymesh::crowd::internal {
namespace {

// Overlap left alone, as a fraction of the smaller radius: contact jitter is repulsion's job.
constexpr float kOverlapSlack = 0.04f;
// Largest push of one agent in one tick, as a fraction of its radius.
constexpr float kMaxPush = 0.5f;

}  // namespace

void ResolveOverlaps(const TickInputs& in, Worker& worker, uint32_t slot) {
  Agent& a = in.agents[slot];
  if (a.state == AgentState::kOnLink) return;
  const AgentSnap& self = in.snaps[slot];
  V2 push;
  // Agents overlapping after the move were among the nearest before it.
  for (uint32_t i = 0; i < a.near_count; ++i) {
    const AgentSnap& o = in.snaps[a.near[i]];
    if (std::fabs(o.y - self.y) > tol::kCrowdFloorSeparation) continue;
    const V2 away = self.pos - o.pos;
    const float d_sq = LengthSq2(away);
    const float contact = self.radius + o.radius -
                          kOverlapSlack * std::min(self.radius, o.radius);
    if (d_sq >= contact * contact || d_sq <= 0) continue;  // same spot: repulsion's job
    // A chaser moves out of the way of the agent it chases, which stays where it is.
    if (o.chases && o.chased == a.id) continue;
    const bool chasing = a.goal_kind == GoalKind::kChase && o.id == a.other;
    const float d = std::sqrt(d_sq);
    push = push + away * ((chasing ? 1.0f : 0.5f) * (contact - d) / d);
  }
  if (LengthSq2(push) == 0) return;
  push = ClampLength2(push, kMaxPush * a.params.radius);
  a.at = SlideTo(*worker.query, a, XZ(a.at.pos) + push, &worker.move);
  SetVelocity(in.dt, a);
}

}  // namespace waymesh::crowd::internal
