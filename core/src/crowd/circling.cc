#include "crowd/circling.h"

#include <cmath>
#include <numbers>

#include "crowd/orca_lines.h"
#include "waymesh/core/crowd/crowd_tolerances.h"

namespace waymesh::crowd::internal {
namespace {

constexpr float kPi = std::numbers::pi_v<float>;

// `angle` in (-pi, pi].
float WrapAngle(float angle) {
  angle = std::remainder(angle, 2 * kPi);
  return angle <= -kPi ? angle + 2 * kPi : angle;
}

// Whether moving by `step` from the agent's position closes in on an agent or wall it is
// already (or would then be) touching: the predicted move collides.
bool MoveCollides(const Agent& agent, V2 step, float dt, std::span<const AgentSnap> snaps,
                  std::span<const uint32_t> neighbours) {
  const V2 pos = XZ(agent.at.pos);
  const V2 next = pos + step;
  const float radius = agent.params.radius;
  for (uint32_t j : neighbours) {
    const AgentSnap& o = snaps[j];
    const V2 other_next = o.pos + o.vel * dt;
    const float reach = radius + o.radius;
    const float after = LengthSq2(next - other_next);
    // Closing in compared with standing still: moving away from an overlap is always free.
    if (after < reach * reach && after < LengthSq2(pos - other_next)) return true;
  }
  for (uint32_t i = 0; i < agent.wall_count; ++i) {
    const WallXZ& w = agent.walls[i];
    if (Det2(w.b - w.a, pos - w.a) < 0) continue;
    const float after = LengthSq2(ClosestOnSegment(w.a, w.b, next) - next);
    if (after < radius * radius && after < LengthSq2(ClosestOnSegment(w.a, w.b, pos) - pos)) {
      return true;
    }
  }
  return false;
}

}  // namespace

V2 CirclingVelocity(const CrowdOptions& options, float dt, V2 wanted,
                    std::span<const AgentSnap> snaps, std::span<const uint32_t> neighbours,
                    Agent& agent, bool* way_clear) {
  *way_clear = false;
  const float speed = Length2(wanted);
  if (speed < tol::kCrowdStillSpeed) {
    agent.detouring = false;
    return {};
  }
  const float path_angle = std::atan2(wanted.z, wanted.x);
  const float step = options.circling_step_deg * (kPi / 180.0f);
  float heading = path_angle;
  if (agent.detouring) {
    // Ease back towards the path by one step.
    const float diff = WrapAngle(path_angle - agent.facing);
    heading =
        std::fabs(diff) <= step ? path_angle : WrapAngle(agent.facing + std::copysign(step, diff));
  }
  const float travel = speed * dt;
  if (!MoveCollides(agent, FromAngle(heading) * travel, dt, snaps, neighbours)) {
    if (agent.detouring && heading == path_angle) {
      agent.detouring = false;
      *way_clear = true;
    }
    return FromAngle(heading) * speed;
  }
  const int turns = int(std::ceil(kPi / step));
  for (int k = 1; k <= turns; ++k) {
    for (const float sign : {1.0f, -1.0f}) {
      const float h = WrapAngle(heading + sign * float(k) * step);
      if (!MoveCollides(agent, FromAngle(h) * travel, dt, snaps, neighbours)) {
        agent.detouring = true;
        return FromAngle(h) * speed;
      }
    }
  }
  return {};  // boxed in: wait a tick
}

}  // namespace waymesh::crowd::internal
