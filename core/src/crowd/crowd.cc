// The Crowd's commands between ticks: options, adding, removing and re-targeting agents,
// teleports and map versions. Step is in crowd_tick.cc.

#include "waymesh/core/crowd/crowd.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"
#include "crowd/crowd_state.h"
#include "crowd/orca_solver.h"

namespace waymesh::crowd {

using internal::Agent;
using internal::CrowdState;
using internal::GoalKind;
using internal::kNoSlot;

namespace {

// Largest agent radius (metres), speed (m/s) and acceleration (m/s²) accepted.
constexpr float kMaxRadius = 10.0f;
constexpr float kMaxSpeed = 100.0f;
constexpr float kMaxAccel = 1000.0f;
// A teleport or a map change looks this many times further (doubling the box each time) for
// the nearest free point when the agent's own box holds none (it stood in a carved hole).
constexpr int kSnapWidenings = 4;

bool InRange(float v, float lo, float hi) { return std::isfinite(v) && v > lo && v <= hi; }

absl::Status OptionError(const char* name, double value, const char* range) {
  return absl::InvalidArgumentError(
      absl::StrFormat("crowd option %s = %g must be %s", name, value, range));
}

absl::Status CheckOptions(const CrowdOptions& o) {
  if (o.mode != AvoidanceMode::kOrca && o.mode != AvoidanceMode::kCircling) {
    return absl::InvalidArgumentError("crowd option mode is neither orca nor circling");
  }
  if (o.max_agents == 0) return OptionError("max_agents", 0, "at least 1");
  if (!IsFinite(o.half_extents) || o.half_extents.x < 0 || o.half_extents.y < 0 ||
      o.half_extents.z < 0) {
    return absl::InvalidArgumentError("crowd option half_extents must be finite and >= 0");
  }
  struct Positive {
    const char* name;
    float value;
  };
  for (const Positive& p : {Positive{"time_horizon", o.time_horizon},
                            Positive{"wall_time_horizon", o.wall_time_horizon},
                            Positive{"neighbour_range", o.neighbour_range},
                            Positive{"arrive_distance", o.arrive_distance},
                            Positive{"progress_seconds", o.progress_seconds},
                            Positive{"goal_moved_distance", o.goal_moved_distance}}) {
    if (!InRange(p.value, 0, 1e6f)) return OptionError(p.name, p.value, "in (0, 1e6]");
  }
  struct NonNegative {
    const char* name;
    float value;
  };
  for (const NonNegative& p : {NonNegative{"separation_speed", o.separation_speed},
                               NonNegative{"progress_distance", o.progress_distance},
                               NonNegative{"orca_margin", o.orca_margin},
                               NonNegative{"min_replan_interval", o.min_replan_interval},
                               NonNegative{"wall_cache_slack", o.wall_cache_slack}}) {
    if (!std::isfinite(p.value) || p.value < 0 || p.value > 1e6f) {
      return OptionError(p.name, p.value, "in [0, 1e6]");
    }
  }
  if (o.max_neighbours > internal::kMaxNeighbours) {
    return OptionError("max_neighbours", o.max_neighbours, "at most 32");
  }
  if (!InRange(o.circling_step_deg, 0, 90)) {
    return OptionError("circling_step_deg", o.circling_step_deg, "in (0, 90]");
  }
  if (o.max_path_nodes == 0) return OptionError("max_path_nodes", 0, "at least 1");
  if (o.chunk_agents == 0) return OptionError("chunk_agents", 0, "at least 1");
  return absl::OkStatus();
}

absl::Status CheckParams(AgentId id, const AgentParams& p) {
  if (!InRange(p.radius, 0, kMaxRadius)) {
    return absl::InvalidArgumentError(
        absl::StrFormat("agent %d: radius %g m must be in (0, %g]", id, p.radius, kMaxRadius));
  }
  if (!InRange(p.max_speed, 0, kMaxSpeed)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "agent %d: max_speed %g m/s must be in (0, %g]", id, p.max_speed, kMaxSpeed));
  }
  if (!InRange(p.max_accel, 0, kMaxAccel)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "agent %d: max_accel %g m/s² must be in (0, %g]", id, p.max_accel, kMaxAccel));
  }
  return absl::OkStatus();
}

absl::Status CheckPosition(AgentId id, const char* what, Vec3 p) {
  if (IsFinite(p)) return absl::OkStatus();
  return absl::InvalidArgumentError(
      absl::StrFormat("agent %d: %s (%g, %g, %g) is not finite", id, what, p.x, p.y, p.z));
}

absl::Status NotFound(AgentId id) {
  return absl::NotFoundError(absl::StrFormat("no agent %d in this crowd", id));
}

// The slot of agent `id`, which is to `verb` ("chase", "follow") agent `other`: NotFound for
// an unknown id, InvalidArgument when it names itself.
absl::StatusOr<uint32_t> LinkedSlot(const CrowdState& s, AgentId id, AgentId other,
                                    const char* verb) {
  const uint32_t slot = s.SlotOf(id);
  if (slot == kNoSlot) return NotFound(id);
  if (s.SlotOf(other) == kNoSlot) return NotFound(other);
  if (other == id) {
    return absl::InvalidArgumentError(absl::StrFormat("agent %d cannot %s itself", id, verb));
  }
  return slot;
}

// The slot of agent `id`, which is to take `p` as its `what` ("target", "position"): NotFound
// for an unknown id, InvalidArgument for a position that is not finite.
absl::StatusOr<uint32_t> SlotToPlace(const CrowdState& s, AgentId id, const char* what, Vec3 p) {
  const uint32_t slot = s.SlotOf(id);
  if (slot == kNoSlot) return NotFound(id);
  if (absl::Status st = CheckPosition(id, what, p); !st.ok()) return st;
  return slot;
}

// The surface point nearest `pos` for `filter`, widening the box a few times when `widen`.
std::optional<SurfacePoint> Snap(NavQuery& query, Vec3 pos, Vec3 half_extents,
                                 const QueryFilter& filter, bool widen) {
  for (int i = 0; i <= (widen ? kSnapWidenings : 0); ++i) {
    const absl::StatusOr<std::optional<SurfacePoint>> p =
        query.NearestPoint(pos, half_extents, filter);
    if (p.ok() && p->has_value()) return **p;
    half_extents = half_extents * 2.0f;
  }
  return std::nullopt;
}

// The agent's path and walls are no longer good: plan again at the next tick.
void ForgetPath(Agent& a) {
  a.has_path = false;
  a.walls_valid = false;
  a.force_plan = a.goal_kind != GoalKind::kNone;
  a.failed_windows = 0;
  a.window_time = 0;
  a.detouring = false;
}

// Puts the agent's target point on the mesh with its filter.
void SnapTarget(CrowdState& s, Agent& a) {
  const std::optional<SurfacePoint> p =
      Snap(s.query(), a.target, s.options.half_extents, a.params.filter, false);
  a.target_on_mesh = p.has_value();
  if (p) a.target_point = *p;
}

// Sets the agent's goal kind and surround membership; its path is planned again.
void Retarget(CrowdState& s, Agent& a, GoalKind kind) {
  a.goal_kind = kind;
  s.surround.Join(a);  // leaves the old group; joins one for kPoint and kChase
  ForgetPath(a);
  if (a.state != AgentState::kOnLink) {
    a.state = kind == GoalKind::kNone ? AgentState::kIdle : AgentState::kMoving;
  }
  s.links_dirty = true;
}

}  // namespace

std::string_view AgentStateName(AgentState state) {
  switch (state) {
    case AgentState::kIdle:
      return "idle";
    case AgentState::kMoving:
      return "moving";
    case AgentState::kArrived:
      return "arrived";
    case AgentState::kStuck:
      return "stuck";
    case AgentState::kNoPath:
      return "no_path";
    case AgentState::kOnLink:
      return "on_link";
  }
  return "unknown";
}

namespace internal {

NavQuery& CrowdState::query() {
  EnsureWorkers(1);
  return *workers[0].query;
}

void CrowdState::EnsureWorkers(uint32_t count) {
  while (workers.size() < count) workers.emplace_back();
  for (Worker& w : workers) {
    if (w.query == nullptr || &w.query->map() != map.get()) {
      w.query = std::make_unique<NavQuery>(map, options.query);
    }
  }
}

}  // namespace internal

absl::StatusOr<Crowd> Crowd::Create(std::shared_ptr<const NavMap> map,
                                    const CrowdOptions& options) {
  if (map == nullptr) return absl::InvalidArgumentError("a crowd needs a map");
  if (absl::Status s = CheckOptions(options); !s.ok()) return s;
  auto state = std::make_unique<CrowdState>();
  state->map = std::move(map);
  state->options = options;
  return Crowd(std::move(state));
}

Crowd::Crowd(std::unique_ptr<CrowdState> state) : state_(std::move(state)) {}
Crowd::~Crowd() = default;
Crowd::Crowd(Crowd&&) noexcept = default;
Crowd& Crowd::operator=(Crowd&&) noexcept = default;

absl::Status Crowd::AddAgent(AgentId id, Vec3 pos, const AgentParams& params) {
  CrowdState& s = *state_;
  if (s.slot_of.contains(id)) {
    return absl::InvalidArgumentError(absl::StrFormat("agent id %d is already in the crowd", id));
  }
  if (absl::Status st = CheckParams(id, params); !st.ok()) return st;
  if (absl::Status st = CheckPosition(id, "position", pos); !st.ok()) return st;
  if (s.agents.size() >= s.options.max_agents) {
    return absl::ResourceExhaustedError(
        absl::StrFormat("agent %d: the crowd is full (max_agents = %d)", id, s.options.max_agents));
  }
  const std::optional<SurfacePoint> at =
      Snap(s.query(), pos, s.options.half_extents, params.filter, false);
  if (!at) {
    const Vec3 e = s.options.half_extents;
    return absl::FailedPreconditionError(absl::StrFormat(
        "agent %d: no walkable polygon its filter accepts within (%g, %g, %g) m of (%g, %g, %g)",
        id, e.x, e.y, e.z, pos.x, pos.y, pos.z));
  }
  Agent a;
  a.id = id;
  a.params = params;
  a.at = *at;
  const uint32_t slot = uint32_t(s.agents.size());
  s.agents.push_back(std::move(a));
  s.slot_of[id] = slot;
  s.order.insert(std::upper_bound(s.order.begin(), s.order.end(), id,
                                  [&](AgentId v, uint32_t o) { return v < s.agents[o].id; }),
                 slot);
  s.links_dirty = true;
  return absl::OkStatus();
}

absl::Status Crowd::RemoveAgent(AgentId id) {
  CrowdState& s = *state_;
  const uint32_t slot = s.SlotOf(id);
  if (slot == kNoSlot) return NotFound(id);
  s.surround.Leave(s.agents[slot]);
  // Chasers and followers of the removed agent lose their goal.
  for (Agent& a : s.agents) {
    if ((a.goal_kind == GoalKind::kChase || a.goal_kind == GoalKind::kFollow) && a.other == id) {
      Retarget(s, a, GoalKind::kNone);
    }
  }
  const uint32_t last = uint32_t(s.agents.size() - 1);
  s.order.erase(std::find(s.order.begin(), s.order.end(), slot));
  if (slot != last) {
    // The last agent moves into the hole; surround groups know members by id, not slot.
    s.agents[slot] = std::move(s.agents[last]);
    s.slot_of[s.agents[slot].id] = slot;
    *std::find(s.order.begin(), s.order.end(), last) = slot;
  }
  s.agents.pop_back();
  s.slot_of.erase(id);
  s.links_dirty = true;
  return absl::OkStatus();
}

absl::Status Crowd::SetParams(AgentId id, const AgentParams& params) {
  CrowdState& s = *state_;
  const uint32_t slot = s.SlotOf(id);
  if (slot == kNoSlot) return NotFound(id);
  if (absl::Status st = CheckParams(id, params); !st.ok()) return st;
  Agent& a = s.agents[slot];
  const std::optional<SurfacePoint> at =
      Snap(s.query(), a.at.pos, s.options.half_extents, params.filter, true);
  if (!at) {
    return absl::FailedPreconditionError(
        absl::StrFormat("agent %d: its new filter accepts no polygon near (%g, %g, %g)", id,
                        a.at.pos.x, a.at.pos.y, a.at.pos.z));
  }
  a.params = params;
  if (a.state != AgentState::kOnLink) a.at = *at;
  if (a.goal_kind == GoalKind::kPoint) SnapTarget(s, a);
  Retarget(s, a, a.goal_kind);
  return absl::OkStatus();
}

absl::Status Crowd::SetTarget(AgentId id, Vec3 target) {
  CrowdState& s = *state_;
  const absl::StatusOr<uint32_t> slot = SlotToPlace(s, id, "target", target);
  if (!slot.ok()) return slot.status();
  Agent& a = s.agents[*slot];
  a.target = target;
  SnapTarget(s, a);
  Retarget(s, a, GoalKind::kPoint);
  if (!a.target_on_mesh && a.state != AgentState::kOnLink) a.state = AgentState::kNoPath;
  return absl::OkStatus();
}

absl::Status Crowd::ChaseAgent(AgentId id, AgentId target) {
  CrowdState& s = *state_;
  const absl::StatusOr<uint32_t> slot = LinkedSlot(s, id, target, "chase");
  if (!slot.ok()) return slot.status();
  s.agents[*slot].other = target;
  Retarget(s, s.agents[*slot], GoalKind::kChase);
  return absl::OkStatus();
}

absl::Status Crowd::Follow(AgentId id, AgentId leader, Vec3 offset) {
  CrowdState& s = *state_;
  const absl::StatusOr<uint32_t> slot = LinkedSlot(s, id, leader, "follow");
  if (!slot.ok()) return slot.status();
  if (absl::Status st = CheckPosition(id, "formation offset", offset); !st.ok()) return st;
  Agent& a = s.agents[*slot];
  a.other = leader;
  a.offset = offset;
  Retarget(s, a, GoalKind::kFollow);
  return absl::OkStatus();
}

absl::Status Crowd::ClearTarget(AgentId id) {
  CrowdState& s = *state_;
  const uint32_t slot = s.SlotOf(id);
  if (slot == kNoSlot) return NotFound(id);
  Retarget(s, s.agents[slot], GoalKind::kNone);
  return absl::OkStatus();
}

absl::Status Crowd::Teleport(AgentId id, Vec3 pos) {
  CrowdState& s = *state_;
  const absl::StatusOr<uint32_t> slot = SlotToPlace(s, id, "position", pos);
  if (!slot.ok()) return slot.status();
  Agent& a = s.agents[*slot];
  const std::optional<SurfacePoint> at =
      Snap(s.query(), pos, s.options.half_extents, a.params.filter, false);
  if (!at) {
    return absl::FailedPreconditionError(
        absl::StrFormat("agent %d: no walkable polygon its filter accepts near (%g, %g, %g)", id,
                        pos.x, pos.y, pos.z));
  }
  a.at = *at;
  a.vel = {};
  if (a.state == AgentState::kOnLink) a.state = AgentState::kMoving;
  ForgetPath(a);
  return absl::OkStatus();
}

absl::Status Crowd::SetMap(std::shared_ptr<const NavMap> map) {
  if (map == nullptr) return absl::InvalidArgumentError("SetMap needs a map");
  CrowdState& s = *state_;
  s.map = std::move(map);
  s.EnsureWorkers(1);
  NavQuery& q = s.query();
  for (Agent& a : s.agents) {
    a.walls_valid = false;
    if (a.state == AgentState::kOnLink) {
      // Lands where the link ends on the new map (or the nearest free point to it).
      if (!q.IsValid(a.link_poly)) {
        const std::optional<SurfacePoint> p =
            Snap(q, a.link_to, s.options.half_extents, a.params.filter, true);
        if (p) {
          a.link_poly = p->poly;
          a.link_to = p->pos;
        }
      }
      if (!q.IsValid(a.at.poly)) a.at.poly = a.link_poly;
    } else if (!q.IsValid(a.at.poly)) {
      // Its polygon changed or is gone (an obstacle covers it): the nearest free point.
      if (const std::optional<SurfacePoint> p =
              Snap(q, a.at.pos, s.options.half_extents, a.params.filter, true)) {
        a.at = *p;
      }
    }
    if (a.goal_kind == GoalKind::kPoint) SnapTarget(s, a);
    const bool corridor_ok = std::all_of(a.path.corridor.begin(), a.path.corridor.end(),
                                         [&](PolyRef r) { return q.IsValid(r); });
    if (!corridor_ok || !q.IsValid(a.at.poly)) ForgetPath(a);
  }
  s.surround.Invalidate();
  return absl::OkStatus();
}

std::span<const AgentUpdate> Crowd::changed() const { return state_->changed; }

void Crowd::Snapshot(std::vector<AgentUpdate>* out) const {
  out->clear();
  for (uint32_t slot : state_->order) out->push_back(internal::Reported(state_->agents[slot]));
}

std::optional<AgentUpdate> Crowd::FindAgent(AgentId id) const {
  const uint32_t slot = state_->SlotOf(id);
  if (slot == kNoSlot) return std::nullopt;
  return internal::Reported(state_->agents[slot]);
}

uint32_t Crowd::agent_count() const { return uint32_t(state_->agents.size()); }
const TickStats& Crowd::last_tick() const { return state_->stats; }
const CrowdOptions& Crowd::options() const { return state_->options; }
const NavMap& Crowd::map() const { return *state_->map; }

}  // namespace waymesh::crowd
