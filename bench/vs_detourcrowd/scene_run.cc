#include "vs_detourcrowd/scene_run.h"

#include <algorithm>
#include <cmath>
#include <ctime>
#include <span>
#include <vector>

#include "absl/strings/str_format.h"
#include "common/stopwatch.h"
#include "waymesh/core/obstacles/carve_map.h"

namespace waymesh::bench {
namespace {

// CPU time (ms) the calling thread has used.
double ThreadCpuMs() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) * 1e3 + double(t.tv_nsec) * 1e-6;
}

}  // namespace

absl::StatusOr<SceneResult> RunScene(CrowdEngine& engine, const CrowdScenario& scenario,
                                     std::shared_ptr<const NavMap> map,
                                     const std::optional<GateClosing>& gate,
                                     const SceneRunOptions& options) {
  std::shared_ptr<const NavMap> gated;
  if (gate) {
    absl::StatusOr<std::shared_ptr<const NavMap>> carved =
        CarveMap(map, std::span<const Obstacle>(&gate->gate, 1));
    if (!carved.ok()) return carved.status();
    gated = *std::move(carved);
  }
  if (!scenario.events.empty()) {
    return absl::InvalidArgumentError("the crowd comparison runs routes only, not events");
  }
  const size_t n = scenario.agents.size();
  std::vector<size_t> next(n, 0);          // route point each agent walks to
  std::vector<double> arrived_s(n, -1.0);  // time it reached its last point
  std::vector<MeteredAgent> metered(n);
  for (size_t i = 0; i < n; ++i) {
    const ScenarioAgent& a = scenario.agents[i];
    if (a.target_agent || a.leader) {
      return absl::InvalidArgumentError(
          absl::StrFormat("agent %d: the crowd comparison runs routes only", a.id));
    }
    if (absl::Status s = engine.Add(a); !s.ok()) return s;
    if (!a.route.empty()) {
      if (absl::Status s = engine.SetTarget(uint32_t(i), a.route[0]); !s.ok()) return s;
    }
    metered[i].radius = a.radius;
  }
  CrowdQualityMeter meter(std::move(map));
  const float dt = float(1.0 / scenario.tick_hz);
  std::vector<double> tick_ms;
  double cpu_ms = 0;
  std::vector<EngineAgent> agents;
  const uint64_t gate_tick =
      gate ? uint64_t(std::ceil(gate->at_s * scenario.tick_hz)) : ~uint64_t{0};
  for (uint64_t tick = 1; tick <= scenario.ticks(); ++tick) {
    if (tick == gate_tick) {
      if (absl::Status s = engine.CloseGate(gate->gate, gated); !s.ok()) return s;
      meter.SetMap(gated);
    }
    const double cpu0 = ThreadCpuMs();
    const Stopwatch watch;
    if (absl::Status s = engine.Step(dt); !s.ok()) return s;
    tick_ms.push_back(watch.ElapsedMs());
    cpu_ms += ThreadCpuMs() - cpu0;
    engine.Positions(&agents);
    for (size_t i = 0; i < n; ++i) {
      const std::vector<Vec3>& route = scenario.agents[i].route;
      if (next[i] >= route.size() || arrived_s[i] >= 0) continue;
      if (DistanceXZ(agents[i].pos, route[next[i]]) > options.arrive_distance) continue;
      if (next[i] + 1 < route.size()) {
        if (absl::Status s = engine.SetTarget(uint32_t(i), route[++next[i]]); !s.ok()) return s;
      } else {
        arrived_s[i] = double(tick) / scenario.tick_hz;
      }
    }
    if (options.quality_every > 0 && tick % options.quality_every == 0) {
      for (size_t i = 0; i < n; ++i) {
        metered[i].pos = agents[i].pos;
        metered[i].on_surface = agents[i].on_surface;
      }
      meter.AddTick(metered);
    }
  }
  SceneResult r;
  r.engine = std::string(engine.name());
  r.agents = uint32_t(n);
  r.ticks = scenario.ticks();
  r.quality = meter.quality();
  double sum = 0;
  for (double v : tick_ms) sum += v;
  if (!tick_ms.empty()) {
    r.ms_per_tick = sum / double(tick_ms.size());
    r.cpu_ms_per_tick = cpu_ms / double(tick_ms.size());
    std::sort(tick_ms.begin(), tick_ms.end());
    r.ms_per_tick_p99 = tick_ms[std::min(tick_ms.size() - 1, tick_ms.size() * 99 / 100)];
    if (n > 0) {
      r.us_per_agent_tick = r.ms_per_tick * 1000 / double(n);
      r.cpu_us_per_agent_tick = r.cpu_ms_per_tick * 1000 / double(n);
    }
  }
  double arrival_sum = 0;
  for (double t : arrived_s) {
    if (t < 0) continue;
    ++r.arrived;
    arrival_sum += t;
  }
  if (r.arrived > 0) r.mean_arrival_s = arrival_sum / r.arrived;
  return r;
}

}  // namespace waymesh::bench
