#pragma once
// Runs one crowd scenario on one engine the same way for both: agents added in order, each
// walking its route (the next point once it is within the arrival distance of the current
// one), the engine stepped at the scenario's rate and timed alone, and positions judged by
// the engine-neutral quality meter on the Waymesh map.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "vs_detourcrowd/crowd_engine.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/crowd_scenario/crowd_quality.h"
#include "waymesh/crowd_scenario/crowd_scenario.h"

namespace waymesh::bench {

// A block obstacle that appears `at_s` seconds into the run.
struct GateClosing {
  double at_s = 0;
  Obstacle gate;
};

struct SceneRunOptions {
  // An agent has reached a route point within this distance (metres, plan view).
  float arrive_distance = 0.25f;
  // Positions are judged every this many ticks (the 10 000-agent town is judged less often).
  uint32_t quality_every = 1;
};

struct SceneResult {
  std::string engine;
  uint32_t agents = 0;
  uint64_t ticks = 0;
  double ms_per_tick = 0;  // mean of the engine's step (wall clock)
  double ms_per_tick_p99 = 0;
  double us_per_agent_tick = 0;
  // The same mean in CPU time of the stepping thread: on a shared machine the wall clock also
  // counts the time other processes had the core.
  double cpu_ms_per_tick = 0;
  double cpu_us_per_agent_tick = 0;
  CrowdQuality quality;
  uint32_t arrived = 0;       // agents at the end of their route
  double mean_arrival_s = 0;  // over the arrived
};

// With `gate`, the gate closes on the engine at its time, and from then on positions are judged
// on the map with the gate carved in: an agent left inside the gate is off the surface.
absl::StatusOr<SceneResult> RunScene(CrowdEngine& engine, const CrowdScenario& scenario,
                                     std::shared_ptr<const NavMap> map,
                                     const std::optional<GateClosing>& gate,
                                     const SceneRunOptions& options);

}  // namespace waymesh::bench
