#pragma once
// Runs a crowd scenario headless (`waymesh crowd`, the crowd tests and benchmark): adds the
// agents, applies the timed events, walks routes point by point, steps the crowd at the
// scenario's rate and keeps the summary: arrivals, overlaps, wall clearance, time per tick.

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "waymesh/core/crowd/crowd.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/crowd_scenario/crowd_quality.h"
#include "waymesh/crowd_scenario/crowd_scenario.h"

namespace waymesh {

struct CrowdRunOptions {
  crowd::CrowdOptions crowd;                 // mode is taken from `mode` or the scenario
  std::optional<crowd::AvoidanceMode> mode;  // overrides the scenario's
  uint32_t quality_every = 1;                // judge positions every this many ticks (0: never)
};

struct CrowdRunSummary {
  uint32_t agents = 0;  // agents that took part
  uint64_t ticks = 0;
  uint32_t routed = 0;        // agents with a route
  uint32_t arrived = 0;       // of those, agents that reached the end of their route
  double mean_arrival_s = 0;  // over the arrived
  CrowdQuality quality;
  double tick_ms_mean = 0, tick_ms_p99 = 0, tick_ms_max = 0;  // Crowd::Step only
  double us_per_agent_tick = 0;
};

class CrowdRun {
 public:
  // Builds the crowd and adds the scenario's agents: errors name the agent (a position off
  // the mesh, bad parameters).
  static absl::StatusOr<std::unique_ptr<CrowdRun>> Start(std::shared_ptr<const NavMap> map,
                                                         const CrowdScenario& scenario,
                                                         const CrowdRunOptions& options);

  // One tick: the events due, route advances, Crowd::Step (timed), the quality meter. An
  // event that cannot be applied is an error naming it.
  absl::Status Tick(crowd::ChunkRunner& runner);
  bool done() const { return tick_ >= scenario_.ticks(); }
  uint64_t tick() const { return tick_; }
  // Every agent after the last tick, in id order.
  const std::vector<crowd::AgentUpdate>& agents() const { return agents_; }
  crowd::Crowd& crowd() { return crowd_; }
  CrowdRunSummary Summary() const;

 private:
  struct Route {
    std::vector<Vec3> points;
    size_t next = 0;  // index of the point it walks to
    double arrived_s = -1;
  };

  CrowdRun(std::shared_ptr<const NavMap> map, const CrowdScenario& scenario, crowd::Crowd crowd,
           const CrowdRunOptions& options);
  absl::Status AddAgent(const ScenarioAgent& agent);
  absl::Status ApplyEvent(const ScenarioEvent& event);
  absl::Status AdvanceRoutes();

  std::shared_ptr<const NavMap> map_;
  CrowdScenario scenario_;
  crowd::Crowd crowd_;
  CrowdRunOptions options_;
  CrowdQualityMeter meter_;
  uint64_t tick_ = 0;
  size_t next_event_ = 0;
  std::vector<crowd::AgentUpdate> agents_;
  std::vector<MeteredAgent> metered_;
  absl::flat_hash_map<crowd::AgentId, Route> routes_;
  absl::flat_hash_map<crowd::AgentId, float> radius_;
  std::vector<double> tick_ms_;
  uint32_t agents_added_ = 0;
  uint64_t agent_ticks_ = 0;  // agents stepped, summed over ticks
};

}  // namespace waymesh
