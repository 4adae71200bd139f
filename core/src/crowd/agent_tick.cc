#include "crowd/agent_tick.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <numbers>

#include "crowd/circling.h"
#include "crowd/formation.h"
#include "crowd/orca_lines.h"
#include "crowd/orca_solver.h"
#include "crowd/path_follower.h"
#include "crowd/repulsion.h"
#include "crowd/surface_move.h"
#include "crowd/wall_cache.h"
#include "waymesh/core/crowd/crowd_tolerances.h"

namespace waymesh::crowd::internal {
namespace {

static_assert(kMaxNeighbours + kMaxWalls <= kMaxHalfPlanes);

// An arrived agent makes way for others: it walks back to its goal no faster than this (m/s),
// and counts as arrived until pushed further than its radius from it.
constexpr float kSettleSpeed = 0.5f;
// Within this distance (metres) of the point it steers to the agent is on it.
constexpr float kOnPoint = 1e-6f;

// Largest turn (degrees) of an agent's wanted direction that breaks symmetric jams.
constexpr float kTieBreakDeg = 3.0f;
// Two ways at least this far from parallel (cosine of the angle to opposite) are head-on.
constexpr float kOppositeCos = 0.5f;
// An agent stepping back out of a knot walks this far (degrees) from its way, to the right, at
// this fraction of its speed.
constexpr float kStepBackDeg = 135.0f;
constexpr float kStepBackSpeed = 0.5f;
// Each of two agents in each other's way takes half of the avoidance (ORCA's reciprocity).
constexpr float kReciprocalShare = 0.5f;

// The nearest agents of agent `slot` (by plan-view distance, then id) within the neighbour range
// and on its floor; returns how many were written to `out`.
uint32_t GatherNeighbours(const TickInputs& in, uint32_t slot,
                          std::array<uint32_t, kMaxNeighbours>& out) {
  const AgentSnap& self = in.snaps[slot];
  const float range = in.options.neighbour_range;
  const uint32_t max_n = std::min(in.options.max_neighbours, kMaxNeighbours);
  if (max_n == 0) return 0;
  // Sort keys: the squared distance's bits (ordered like the distance, which is >= 0) above
  // the id, so that one integer comparison orders by distance and breaks ties by id.
  std::array<uint64_t, kMaxNeighbours> key;
  uint32_t n = 0;
  // Agents count when their centre is within the range plus the largest radius (a slightly
  // wider net than range + their own radius, the same for all of them).
  const float reach_sq = (range + in.max_radius) * (range + in.max_radius);
  auto consider = [&](const GridItem& o) {
    const float d = LengthSq2(o.pos - self.pos);
    const uint64_t k_new = (uint64_t{std::bit_cast<uint32_t>(d)} << 32) | o.id;
    if (n == max_n && k_new >= key[n - 1]) return;  // beyond the furthest of a full list
    if (o.index == slot || d > reach_sq || std::fabs(o.y - self.y) > tol::kCrowdFloorSeparation) {
      return;
    }
    uint32_t k = n < max_n ? n++ : n - 1;  // a full list drops its furthest
    for (; k > 0 && k_new < key[k - 1]; --k) {
      key[k] = key[k - 1];
      out[k] = out[k - 1];
    }
    key[k] = k_new;
    out[k] = o.index;
  };
  // Ring by ring outwards, until the rings left are beyond the range or beyond the furthest of
  // a full list (each ring's agents are all looked at, so the list does not depend on order).
  const float edge = in.grid.EdgeDistance(self.pos);
  for (int32_t ring = 0; ring <= in.grid.max_ring(); ++ring) {
    const float lower = ring == 0 ? 0.0f : edge + float(ring - 1) * in.grid.cell();
    if (lower > range + in.max_radius) break;
    if (n == max_n && lower * lower > std::bit_cast<float>(uint32_t(key[n - 1] >> 32))) break;
    in.grid.ForEachInRing(self.pos, ring, consider);
  }
  return n;
}

// Sets the agent's goal for this tick from its goal kind; asks for a re-plan when a moving
// goal drifted from where the path ends.
void UpdateGoal(const TickInputs& in, Worker& worker, Agent& a) {
  a.has_goal = false;
  switch (a.goal_kind) {
    case GoalKind::kNone:
      break;
    case GoalKind::kPoint:
      a.has_goal = a.target_on_mesh;
      a.goal = a.has_slot ? a.slot_goal : a.target_point;
      break;
    case GoalKind::kChase:
      if (a.other_slot == kNoSlot) break;
      a.has_goal = true;
      if (a.has_slot) {
        a.goal = a.slot_goal;
      } else {
        const AgentSnap& t = in.snaps[a.other_slot];
        a.goal = SurfacePoint{t.poly, Lift(t.pos, t.y)};
      }
      break;
    case GoalKind::kFollow:
      if (a.other_slot == kNoSlot) break;
      a.has_goal = FormationSlot(*worker.query, in.snaps[a.other_slot], a.offset, a.params.filter,
                                 &worker.move, &a.goal);
      break;
  }
  if (a.has_goal && a.has_path &&
      DistanceXZ(a.goal.pos, a.planned_goal) > in.options.goal_moved_distance) {
    a.want_plan = true;
  }
}

// A turn in [-kTieBreakDeg, kTieBreakDeg] (radians) fixed by the agent's id.
float TieBreakAngle(AgentId id) {
  const uint32_t mix = id * 2654435761u;                 // Knuth's multiplicative hash
  const float unit = float(mix >> 8) / float(1u << 24);  // [0, 1)
  return (2 * unit - 1) * kTieBreakDeg * (std::numbers::pi_v<float> / 180.0f);
}

// The velocity the agent would like: towards its next corner at full speed, braking to stop
// at its goal, changing by at most its acceleration.
V2 WantedVelocity(const CrowdOptions& options, float dt, const Agent& a) {
  SteerPoint steer;
  if (!a.has_goal || !SteerTarget(a, &steer)) return {};
  const V2 to = steer.pos - XZ(a.at.pos);
  const float dist = Length2(to);
  if (dist <= (steer.last ? options.arrive_distance : kOnPoint)) return {};
  float speed = a.state == AgentState::kArrived ? kSettleSpeed : a.params.max_speed;
  if (steer.last) {
    speed = std::min({speed, std::sqrt(2 * a.params.max_accel * dist), dist / dt});
  }
  // Turned by a small angle fixed per agent: perfectly symmetric crowds (a circle of agents
  // swapping sides) otherwise meet in a symmetric jam that no agent can break.
  const float turn = TieBreakAngle(a.id);
  const float c = std::cos(turn), s = std::sin(turn);
  const V2 straight = to * (speed / dist);
  const V2 desired{straight.x * c - straight.z * s, straight.x * s + straight.z * c};
  return a.vel + ClampLength2(desired - a.vel, a.params.max_accel * dt);
}

// `v` turned by `degrees` to the right (+z is to the left of +x in the map frame, Y up).
V2 TurnRight(V2 v, float degrees) {
  const float turn = -degrees * (std::numbers::pi_v<float> / 180.0f);
  const float c = std::cos(turn), s = std::sin(turn);
  return V2{v.x * c - v.z * s, v.x * s + v.z * c};
}

// Whether someone is coming towards the agent on its way (wanted velocity `wanted`) near
// enough to matter within the time horizon.
bool Oncoming(const TickInputs& in, const Agent& a, V2 wanted,
              std::span<const uint32_t> neighbours) {
  const float speed = Length2(wanted);
  if (speed < tol::kCrowdStillSpeed) return false;
  const V2 dir = wanted * (1.0f / speed);
  const V2 pos = XZ(a.at.pos);
  for (uint32_t j : neighbours) {
    const AgentSnap& o = in.snaps[j];
    const V2 rel = o.pos - pos;
    const float ahead = Dot2(rel, dir);
    // Coming (or wanting to come, when a knot holds it) towards the agent: its velocity or
    // its way points back along the agent's way.
    const float along = Dot2(o.vel, dir);
    const bool towards = along < -kFacingSpeed || Dot2(o.way, dir) < -kOppositeCos;
    if (ahead <= 0 || !towards) continue;  // behind, or not coming towards it
    if (std::fabs(Det2(dir, rel)) > 2 * (a.params.radius + o.radius)) continue;  // aside
    // Near enough when the two could meet within the horizon at full speed (a knot stands).
    const float closing = a.params.max_speed + std::max(0.0f, -along);
    if (ahead <= closing * in.options.time_horizon) return true;
  }
  return false;
}

// Social conventions on top of avoidance. An agent with someone coming towards it keeps right
// (turns its way keep_right_deg to the right), so crowds meeting head-on form lanes. And a
// crowd caught in a knot (a ring of agents all heading for its middle, a jam at a door) stays
// stuck however each of them steers: an agent that made no progress for a window steps back
// and to its right for the next one if its id says so. Which half of the knot steps back
// alternates window by window, so the others get through.
V2 Courtesy(const TickInputs& in, const Agent& a, V2 wanted, std::span<const uint32_t> neighbours) {
  const bool steps_back =
      a.failed_windows > 0 && ((a.id * 2654435761u >> 16) + a.failed_windows) % 2 == 0;
  if (steps_back) {
    return TurnRight(Normalized2(wanted), kStepBackDeg) * (kStepBackSpeed * a.params.max_speed);
  }
  if (!Oncoming(in, a, wanted, neighbours)) return wanted;
  return TurnRight(wanted, in.options.keep_right_deg);
}

V2 OrcaVelocity(const TickInputs& in, Worker& w, const Agent& a, V2 wanted,
                std::span<const uint32_t> neighbours) {
  const CrowdOptions& o = in.options;
  std::vector<HalfPlane>& planes = w.planes;
  size_t n = 0;
  const V2 pos = XZ(a.at.pos);
  const float radius = a.params.radius;
  const float wall_reach = WallRange(o, a.params);
  for (uint32_t i = 0; i < a.wall_count; ++i) {
    const WallXZ& w = a.walls[i];
    if (LengthSq2(ClosestOnSegment(w.a, w.b, pos) - pos) > wall_reach * wall_reach) continue;
    if (WallHalfPlane(pos, a.vel, radius, w, o.wall_time_horizon, in.dt, a.params.max_speed,
                      &planes[n])) {
      ++n;
    }
  }
  const size_t hard = n;
  for (uint32_t j : neighbours) {
    const AgentSnap& other = in.snaps[j];
    // A chaser takes all of the avoidance of the agent it chases, which ignores it: mobs
    // surround a player, they neither shove it about nor chase it away.
    if (other.chases && other.chased == a.id) continue;
    const bool chasing = a.goal_kind == GoalKind::kChase && other.id == a.other;
    planes[n++] =
        AgentHalfPlane(pos, a.vel, other.pos, other.vel, radius + other.radius + o.orca_margin,
                       o.time_horizon, in.dt, chasing ? 1.0f : kReciprocalShare);
  }
  return SolveOrca(std::span<const HalfPlane>(planes.data(), n), hard, a.params.max_speed, wanted,
                   w.projected);
}

// Walks the agent by v * dt along the surface and clear of walls; its velocity becomes what it
// really moved.
void Move(const TickInputs& in, Worker& w, Agent& a, V2 v) {
  a.at = SlideTo(*w.query, a, XZ(a.at.pos) + v * in.dt, &w.move);
  SetVelocity(in.dt, a);
}

// Arrival, and the progress window that triggers re-plans and the stuck state.
void UpdateProgress(const CrowdOptions& o, float dt, Agent& a) {
  if (!a.has_goal) {
    a.state = a.goal_kind == GoalKind::kNone ? AgentState::kIdle : AgentState::kNoPath;
    return;
  }
  if (!a.has_path) return;  // kNoPath, or waiting for its plan
  const float d = DistanceXZ(a.at.pos, a.goal.pos);
  const bool complete = a.path.status == QueryStatus::kComplete;
  if (complete &&
      (d <= o.arrive_distance || (a.state == AgentState::kArrived && d <= a.params.radius))) {
    a.state = AgentState::kArrived;
    a.window_time = 0;
    a.failed_windows = 0;
    a.window_start_remaining = RemainingLength(a);
    return;
  }
  if (a.state == AgentState::kArrived) a.state = AgentState::kMoving;
  a.window_time += dt;
  if (a.window_time < o.progress_seconds) return;
  const float remaining = RemainingLength(a);
  if (remaining < a.window_start_remaining - o.progress_distance) {
    a.failed_windows = 0;
    if (a.state == AgentState::kStuck) a.state = AgentState::kMoving;
  } else {
    ++a.failed_windows;
    a.want_plan = true;
    if (a.failed_windows >= o.stuck_replans) a.state = AgentState::kStuck;
  }
  a.window_start_remaining = remaining;
  a.window_time = 0;
}

}  // namespace

void TickAgent(const TickInputs& in, Worker& worker, uint32_t slot) {
  const CrowdOptions& o = in.options;
  Agent& a = in.agents[slot];
  a.tick_flags = 0;
  a.tick_start = XZ(a.at.pos);
  a.since_plan += in.dt;
  if (a.state == AgentState::kOnLink) {
    CrossLink(in.dt, a);
    return;
  }
  UpdateGoal(in, worker, a);
  if (a.plan_now) PlanPath(*worker.query, o, a);
  const absl::StatusOr<bool> read = RefreshWalls(*worker.query, o, a, &worker.walls);
  if (!read.ok()) {
    a.walls_valid = false;
    a.wall_count = 0;
  } else if (*read) {
    a.tick_flags |= kTickWallsRead;
  }
  a.near_count = GatherNeighbours(in, slot, a.near);
  const std::span<const uint32_t> neighbours(a.near.data(), a.near_count);

  const V2 straight = WantedVelocity(o, in.dt, a);
  a.way = Normalized2(straight);
  const V2 wanted = Courtesy(in, a, straight, neighbours);
  V2 v;
  if (o.mode == AvoidanceMode::kOrca) {
    v = OrcaVelocity(in, worker, a, wanted, neighbours);
  } else {
    bool way_clear = false;
    v = CirclingVelocity(o, in.dt, wanted, in.snaps, neighbours, a, &way_clear);
    if (way_clear) a.want_plan = true;
  }
  v = v + RepulsionVelocity(o, in.dt, a, in.snaps, neighbours);
  Move(in, worker, a, v);
  FollowCorridor(o, in.dt, a);
  if (a.state != AgentState::kOnLink) UpdateProgress(o, in.dt, a);
  if (a.want_plan || a.force_plan) a.tick_flags |= kTickWantsPlan;
}

}  // namespace waymesh::crowd::internal
