#include "vs_detourcrowd/crowd_report.h"

#include <cmath>

#include "absl/strings/str_format.h"

namespace waymesh::bench {
namespace {

std::string Clearance(float metres) {
  return std::isfinite(metres) ? absl::StrFormat("%.3f", metres) : "-";
}

}  // namespace

void PrintCrowdReport(const std::vector<SceneReport>& reports, std::ostream& out) {
  out << absl::StrFormat("%-9s %-12s %6s %5s %9s %9s %9s %9s %9s %9s %8s %8s %9s %8s %9s %9s\n",
                         "scene", "engine", "agents", "ticks", "ms/tick", "p99 ms", "us/agent",
                         "cpu ms", "cpu us/ag", "overlaps", "worst m", "wall-pen", "min-clr m",
                         "off-mesh", "arrived", "arrival s");
  for (const SceneReport& r : reports) {
    for (const SceneResult& e : r.results) {
      const CrowdQuality& q = e.quality;
      out << absl::StrFormat(
          "%-9s %-12s %6d %5d %9.3f %9.3f %9.3f %9.3f %9.3f %9d %8.3f %8d %9s %8d %9d %9.2f\n",
          r.scene, e.engine, e.agents, e.ticks, e.ms_per_tick, e.ms_per_tick_p99,
          e.us_per_agent_tick, e.cpu_ms_per_tick, e.cpu_us_per_agent_tick, q.overlap_pairs,
          q.worst_overlap, q.wall_penetrations, Clearance(q.min_wall_clearance), q.off_mesh,
          e.arrived, e.mean_arrival_s);
    }
    if (r.results.size() == 2 && r.results[0].us_per_agent_tick > 0 &&
        r.results[0].cpu_us_per_agent_tick > 0) {
      out << absl::StrFormat(
          "%-9s time per agent-tick, %s / %s: %.2fx wall clock, %.2fx CPU\n", r.scene,
          r.results[1].engine, r.results[0].engine,
          r.results[1].us_per_agent_tick / r.results[0].us_per_agent_tick,
          r.results[1].cpu_us_per_agent_tick / r.results[0].cpu_us_per_agent_tick);
    }
  }
}

}  // namespace waymesh::bench
