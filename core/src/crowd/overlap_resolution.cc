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
  const float reach = self.radius + in.max_radius;
  // Overlapping agents are within the first rings (cells are at least that large).
  const float edge = in.grid.EdgeDistance(self.pos);
  for (int32_t ring = 0; ring <= in.grid.max_ring(); ++ring) {
    if (ring > 0 && edge + float(ring - 1) * in.grid.cell() > reach) break;
    in.grid.ForEachInRing(self.pos, ring, [&](uint32_t j) {
      if (j == slot) return;
      const AgentSnap& o = in.snaps[j];
      if (!o.avoids || std::fabs(o.y - self.y) > tol::kCrowdFloorSeparation) return;
      const V2 away = self.pos - o.pos;
      const float d = Length2(away);
      const float excess =
          self.radius + o.radius - kOverlapSlack * std::min(self.radius, o.radius) - d;
      if (excess <= 0 || d <= 0) return;  // on the same spot: repulsion separates them
      // A chaser moves out of the way of the agent it chases, which stays where it is.
      if (o.chases && o.chased == a.id) return;
      const bool chasing = a.goal_kind == GoalKind::kChase && o.id == a.other;
      push = push + away * ((chasing ? 1.0f : 0.5f) * excess / d);
    });
  }
  if (LengthSq2(push) == 0) return;
  push = ClampLength2(push, kMaxPush * a.params.radius);
  a.at = SlideTo(*worker.query, a, XZ(a.at.pos) + push, &worker.move);
  SetVelocity(in.dt, a);
}

}  // namespace waymesh::crowd::internal
