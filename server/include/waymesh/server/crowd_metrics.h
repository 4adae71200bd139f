#pragma once
// The crowd sessions' metrics (docs/metrics.md), registered in the server's registry next to the
// standard set: sessions and agents now, how long each tick took, and ticks a server-ticked
// session had to skip. Thread-safe.

#include <cstdint>

#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"

namespace waymesh::server {

class CrowdMetrics {
 public:
  explicit CrowdMetrics(prometheus::Registry& registry);

  // waymesh_crowd_sessions and waymesh_crowd_agents move by these amounts.
  void AddSessions(int64_t delta) { sessions_->Increment(static_cast<double>(delta)); }
  void AddAgents(int64_t delta) { agents_->Increment(static_cast<double>(delta)); }
  // One tick of one session took `seconds` of a worker (waymesh_crowd_tick_seconds).
  void ObserveTick(double seconds) { tick_seconds_->Observe(seconds); }
  // Server ticks skipped: the tick before was still running or queued, or the caller read too
  // slowly (waymesh_crowd_overrun_ticks_total).
  void RecordOverruns(uint64_t ticks) { overruns_->Increment(static_cast<double>(ticks)); }
  // A session refused at open because the replica holds --max-crowd-sessions
  // (waymesh_crowd_sessions_refused_total).
  void RecordSessionRefused() { refused_->Increment(); }

 private:
  prometheus::Gauge* sessions_;
  prometheus::Gauge* agents_;
  prometheus::Histogram* tick_seconds_;
  prometheus::Counter* overruns_;
  prometheus::Counter* refused_;
};

}  // namespace waymesh::server
