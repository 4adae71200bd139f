#include "waymesh/server/crowd_metrics.h"

#include <vector>

namespace waymesh::server {
namespace {

// 50 µs .. 100 ms: a 20 Hz tick has 50 ms, and a session's share should be far below it.
std::vector<double> TickBuckets() {
  return {0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1};
}

}  // namespace

CrowdMetrics::CrowdMetrics(prometheus::Registry& registry)
    : sessions_(&prometheus::BuildGauge()
                     .Name("waymesh_crowd_sessions")
                     .Help("Crowd sessions (RunCrowd streams) open on this replica.")
                     .Register(registry)
                     .Add({})),
      agents_(&prometheus::BuildGauge()
                   .Name("waymesh_crowd_agents")
                   .Help("Agents in every open crowd session.")
                   .Register(registry)
                   .Add({})),
      tick_seconds_(&prometheus::BuildHistogram()
                         .Name("waymesh_crowd_tick_seconds")
                         .Help("Worker time of one crowd tick of one session (seconds).")
                         .Register(registry)
                         .Add({}, TickBuckets())),
      overruns_(&prometheus::BuildCounter()
                     .Name("waymesh_crowd_overrun_ticks_total")
                     .Help("Server ticks skipped because the tick before was still running or "
                           "the caller read too slowly.")
                     .Register(registry)
                     .Add({})),
      refused_(&prometheus::BuildCounter()
                    .Name("waymesh_crowd_sessions_refused_total")
                    .Help("Crowd sessions refused because the replica holds "
                          "--max-crowd-sessions.")
                    .Register(registry)
                    .Add({})) {}

}  // namespace waymesh::server
