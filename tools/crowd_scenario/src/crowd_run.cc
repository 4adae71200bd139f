#include "waymesh/crowd_scenario/crowd_run.h"

#include <algorithm>
#include <chrono>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace waymesh {
namespace {

// The error of a command from the scenario, prefixed with where it came from.
absl::Status Annotate(const absl::Status& s, const std::string& where) {
  if (s.ok()) return s;
  return absl::Status(s.code(), absl::StrCat(where, ": ", s.message()));
}

}  // namespace

absl::StatusOr<std::unique_ptr<CrowdRun>> CrowdRun::Start(std::shared_ptr<const NavMap> map,
                                                          const CrowdScenario& scenario,
                                                          const CrowdRunOptions& options) {
  crowd::CrowdOptions crowd_options = options.crowd;
  crowd_options.mode = options.mode.value_or(scenario.mode.value_or(options.crowd.mode));
  absl::StatusOr<crowd::Crowd> crowd = crowd::Crowd::Create(map, crowd_options);
  if (!crowd.ok()) return crowd.status();
  std::unique_ptr<CrowdRun> run(new CrowdRun(map, scenario, *std::move(crowd), options));
  for (const ScenarioAgent& a : scenario.agents) {
    if (absl::Status s = run->AddAgent(a); !s.ok()) return s;
  }
  // Goals that name other agents once every agent exists.
  for (const ScenarioAgent& a : scenario.agents) {
    absl::Status s;
    if (a.target_agent) s = run->crowd_.ChaseAgent(a.id, *a.target_agent);
    if (a.leader) s = run->crowd_.Follow(a.id, *a.leader, a.offset);
    if (!s.ok()) return s;
  }
  run->crowd_.Snapshot(&run->agents_);
  return run;
}

CrowdRun::CrowdRun(std::shared_ptr<const NavMap> map, const CrowdScenario& scenario,
                   crowd::Crowd crowd, const CrowdRunOptions& options)
    : map_(map), scenario_(scenario), crowd_(std::move(crowd)), options_(options), meter_(map) {}

absl::Status CrowdRun::AddAgent(const ScenarioAgent& a) {
  crowd::AgentParams params;
  params.radius = a.radius;
  params.max_speed = a.max_speed;
  params.max_accel = a.max_accel;
  params.filter = QueryFilter(map_->info());
  if (!a.areas.empty()) {
    uint64_t mask = 0;
    for (uint8_t area : a.areas) mask |= uint64_t{1} << area;
    params.filter.set_area_mask(mask);
  }
  if (absl::Status s = crowd_.AddAgent(a.id, a.position, params); !s.ok()) return s;
  radius_[a.id] = a.radius;
  ++agents_added_;
  if (!a.route.empty()) {
    routes_[a.id] = Route{a.route, 0, -1};
    return crowd_.SetTarget(a.id, a.route[0]);
  }
  return absl::OkStatus();
}

absl::Status CrowdRun::ApplyEvent(const ScenarioEvent& e) {
  using Kind = ScenarioEvent::Kind;
  switch (e.kind) {
    case Kind::kRetarget:
      routes_[e.agent] = Route{{e.point}, 0, -1};
      return crowd_.SetTarget(e.agent, e.point);
    case Kind::kChase:
      routes_.erase(e.agent);
      return crowd_.ChaseAgent(e.agent, e.other);
    case Kind::kFollow:
      routes_.erase(e.agent);
      return crowd_.Follow(e.agent, e.other, e.offset);
    case Kind::kStop:
      routes_.erase(e.agent);
      return crowd_.ClearTarget(e.agent);
    case Kind::kTeleport:
      return crowd_.Teleport(e.agent, e.point);
    case Kind::kRemove:
      routes_.erase(e.agent);
      radius_.erase(e.agent);
      return crowd_.RemoveAgent(e.agent);
    case Kind::kAdd: {
      if (absl::Status s = AddAgent(e.added); !s.ok()) return s;
      if (e.added.target_agent) return crowd_.ChaseAgent(e.agent, *e.added.target_agent);
      if (e.added.leader) return crowd_.Follow(e.agent, *e.added.leader, e.added.offset);
      return absl::OkStatus();
    }
  }
  return absl::OkStatus();
}

absl::Status CrowdRun::AdvanceRoutes() {
  const double now = double(tick_) / scenario_.tick_hz;
  for (const crowd::AgentUpdate& u : agents_) {
    if (u.state != crowd::AgentState::kArrived) continue;
    const auto it = routes_.find(u.id);
    if (it == routes_.end()) continue;
    Route& r = it->second;
    if (r.next + 1 < r.points.size()) {
      ++r.next;
      if (absl::Status s = crowd_.SetTarget(u.id, r.points[r.next]); !s.ok()) return s;
    } else if (r.arrived_s < 0) {
      r.arrived_s = now;
    }
  }
  return absl::OkStatus();
}

absl::Status CrowdRun::Tick(crowd::ChunkRunner& runner) {
  const double now = double(tick_) / scenario_.tick_hz;
  while (next_event_ < scenario_.events.size() && scenario_.events[next_event_].t <= now) {
    const ScenarioEvent& e = scenario_.events[next_event_++];
    const absl::Status s = ApplyEvent(e);
    if (!s.ok()) return Annotate(s, absl::StrFormat("event at t = %g s", e.t));
  }
  agent_ticks_ += crowd_.agent_count();
  const auto t0 = std::chrono::steady_clock::now();
  if (absl::Status s = crowd_.Step(float(1.0 / scenario_.tick_hz), runner); !s.ok()) return s;
  tick_ms_.push_back(
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  ++tick_;
  crowd_.Snapshot(&agents_);
  if (absl::Status s = AdvanceRoutes(); !s.ok()) return s;
  if (options_.quality_every > 0 && tick_ % options_.quality_every == 0) {
    metered_.clear();
    for (const crowd::AgentUpdate& u : agents_) {
      metered_.push_back(MeteredAgent{u.pos, radius_[u.id], u.state != crowd::AgentState::kOnLink});
    }
    meter_.AddTick(metered_);
  }
  return absl::OkStatus();
}

CrowdRunSummary CrowdRun::Summary() const {
  CrowdRunSummary s;
  s.agents = agents_added_;
  s.ticks = tick_;
  double arrival_sum = 0;
  for (const auto& [id, route] : routes_) {
    ++s.routed;
    if (route.arrived_s >= 0) {
      ++s.arrived;
      arrival_sum += route.arrived_s;
    }
  }
  if (s.arrived > 0) s.mean_arrival_s = arrival_sum / s.arrived;
  s.quality = meter_.quality();
  if (!tick_ms_.empty()) {
    std::vector<double> sorted = tick_ms_;
    std::sort(sorted.begin(), sorted.end());
    double sum = 0;
    for (double v : sorted) sum += v;
    s.tick_ms_mean = sum / sorted.size();
    s.tick_ms_p99 = sorted[std::min(sorted.size() - 1, sorted.size() * 99 / 100)];
    s.tick_ms_max = sorted.back();
    if (agent_ticks_ > 0) s.us_per_agent_tick = sum * 1000 / double(agent_ticks_);
  }
  return s;
}

}  // namespace waymesh
