#include "crowd/path_follower.h"

#include <algorithm>

namespace waymesh::crowd::internal {
namespace {

// How far along its corridor (polygons) an agent is looked for after a move, and how far back
// (it may be pushed back by others).
constexpr uint32_t kCorridorLookahead = 32;
constexpr uint32_t kCorridorLookback = 8;

// Within this distance (metres) of a corner the agent turns to the next one: what it covers
// in a tick, and never less than the arrival distance.
float CornerReach(const CrowdOptions& options, float dt, const Agent& agent) {
  return std::max(options.arrive_distance, agent.params.max_speed * dt);
}

// Corridor index of each waypoint's polygon and the path length left from each waypoint.
void IndexPath(Agent& agent) {
  const std::vector<Waypoint>& wps = agent.path.waypoints;
  const std::vector<PolyRef>& corridor = agent.path.corridor;
  agent.waypoint_step.resize(wps.size());
  uint32_t step = 0;
  for (size_t k = 0; k < wps.size(); ++k) {
    uint32_t j = step;
    while (j < corridor.size() && corridor[j] != wps[k].poly) ++j;
    if (j < corridor.size()) step = j;
    agent.waypoint_step[k] = step;
  }
  agent.remaining.resize(wps.size());
  float sum = 0;
  for (size_t k = wps.size(); k-- > 0;) {
    agent.remaining[k] = sum;
    if (k > 0) sum += DistanceXZ(wps[k - 1].pos, wps[k].pos);
  }
}

// Looks for the agent's polygon near its corridor position; false when it is off the corridor.
bool LocateInCorridor(Agent& agent) {
  const std::vector<PolyRef>& corridor = agent.path.corridor;
  const uint32_t size = uint32_t(corridor.size());
  const uint32_t from = agent.corridor_pos;
  if (from < size && corridor[from] == agent.at.poly) return true;  // most ticks: same polygon
  for (uint32_t j = from; j < std::min(size, from + kCorridorLookahead); ++j) {
    if (corridor[j] == agent.at.poly) {
      agent.corridor_pos = j;
      return true;
    }
  }
  for (uint32_t j = from > kCorridorLookback ? from - kCorridorLookback : 0; j < from; ++j) {
    if (corridor[j] == agent.at.poly) {
      agent.corridor_pos = j;
      return true;
    }
  }
  return false;
}

void StartLink(Agent& agent) {
  const std::vector<Waypoint>& wps = agent.path.waypoints;
  agent.state = AgentState::kOnLink;
  agent.link_from = agent.at.pos;
  agent.link_to = wps[agent.waypoint + 1].pos;
  agent.link_poly = wps[agent.waypoint].poly;
  agent.link_t = 0;
  agent.detouring = false;
}

}  // namespace

void PlanPath(NavQuery& query, const CrowdOptions& options, Agent& agent) {
  agent.plan_now = agent.want_plan = agent.force_plan = false;
  agent.since_plan = 0;
  agent.tick_flags |= kTickPlanned;
  agent.has_path = false;
  agent.off_corridor = false;
  agent.detouring = false;
  if (!agent.has_goal) return;
  PathOptions po;
  po.clearance = agent.params.radius;
  po.max_nodes = options.max_path_nodes;
  const absl::Status s = query.FindPath(agent.at, agent.goal, agent.params.filter, po, &agent.path);
  const QueryStatus found = agent.path.status;
  if (!s.ok() || (found != QueryStatus::kComplete && found != QueryStatus::kPartial) ||
      agent.path.waypoints.empty()) {
    agent.path.waypoints.clear();
    agent.state = AgentState::kNoPath;
    return;
  }
  IndexPath(agent);
  agent.has_path = true;
  agent.waypoint = std::min<uint32_t>(1, uint32_t(agent.path.waypoints.size() - 1));
  agent.corridor_pos = 0;
  agent.planned_goal = agent.goal.pos;
  agent.window_start_remaining = RemainingLength(agent);
  agent.window_time = 0;
  if (agent.state != AgentState::kArrived && agent.state != AgentState::kStuck) {
    agent.state = AgentState::kMoving;
  }
}

bool SteerTarget(const Agent& agent, SteerPoint* out) {
  if (!agent.has_path) return false;
  const std::vector<Waypoint>& wps = agent.path.waypoints;
  const uint32_t last = uint32_t(wps.size() - 1);
  if (agent.waypoint < last) {
    *out = {XZ(wps[agent.waypoint].pos), false};
  } else if (agent.path.status == QueryStatus::kComplete) {
    // The goal as it is now: a followed or chased goal moves between plans.
    *out = {XZ(agent.goal.pos), true};
  } else {
    *out = {XZ(wps[last].pos), true};  // a partial path ends short of the goal
  }
  return true;
}

void FollowCorridor(const CrowdOptions& options, float dt, Agent& agent) {
  if (!agent.has_path) return;
  agent.off_corridor = !LocateInCorridor(agent);
  if (agent.off_corridor) agent.want_plan = true;
  const std::vector<Waypoint>& wps = agent.path.waypoints;
  const uint32_t last = uint32_t(wps.size() - 1);
  const float reach = CornerReach(options, dt, agent);
  const V2 pos = XZ(agent.at.pos);
  while (agent.waypoint < last) {
    const Waypoint& w = wps[agent.waypoint];
    const V2 corner = XZ(w.pos);
    const bool near = LengthSq2(corner - pos) <= reach * reach;
    if (w.flags & kWaypointOffMeshLink) {
      if (near) StartLink(agent);
      break;
    }
    const uint32_t step = agent.waypoint_step[agent.waypoint];
    bool passed = near || (!agent.off_corridor && agent.corridor_pos > step);
    if (!passed && !agent.off_corridor && agent.corridor_pos == step) {
      // Just past the corner's portal: round the corner once beyond it along the next leg.
      passed = Dot2(pos - corner, XZ(wps[agent.waypoint + 1].pos) - corner) > 0;
    }
    if (!passed) break;
    ++agent.waypoint;
  }
  if (agent.path.status != QueryStatus::kComplete && agent.waypoint >= last &&
      LengthSq2(XZ(wps[last].pos) - pos) <= reach * reach) {
    agent.want_plan = true;  // the end of a partial path: search on from here
  }
}

void CrossLink(float dt, Agent& agent) {
  const float length = Distance(agent.link_from, agent.link_to);
  const float step = length > 0 ? agent.params.max_speed * dt / length : 1.0f;
  agent.link_t = std::min(1.0f, agent.link_t + step);
  const Vec3 before = agent.at.pos;
  agent.at.pos = Lerp(agent.link_from, agent.link_to, agent.link_t);
  agent.vel = (XZ(agent.at.pos) - XZ(before)) * (1.0f / dt);
  if (agent.link_t < 1.0f) return;
  agent.at = SurfacePoint{agent.link_poly, agent.link_to};
  agent.state = AgentState::kMoving;
  agent.walls_valid = false;
  const uint32_t last = uint32_t(agent.path.waypoints.size() - 1);
  const uint32_t landing = std::min(agent.waypoint + 1, last);  // the link's far end
  agent.corridor_pos = agent.waypoint_step[landing];
  agent.waypoint = std::min(landing + 1, last);
}

float RemainingLength(const Agent& agent) {
  const V2 pos = XZ(agent.at.pos);
  if (!agent.has_path) return Length2(XZ(agent.goal.pos) - pos);
  SteerPoint steer;
  SteerTarget(agent, &steer);
  return agent.remaining[agent.waypoint] + Length2(steer.pos - pos);
}

}  // namespace waymesh::crowd::internal
