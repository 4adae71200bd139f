// Cost of recording the standard server metrics on the hot path: what every call pays
// (started + handled + latency histogram) and what every FindPath adds (outcome counter and the
// nodes-expanded histogram, one series shared by all workers). Run with --benchmark_filter=...;
// the threaded variants show contention between workers recording at once.
//   metrics_bench --benchmark_min_time=0.5

#include <benchmark/benchmark.h>

#include <memory>

#include "waymesh/server/metrics.h"

namespace waymesh::server {
namespace {

ServerMetrics& SharedMetrics() {
  static ServerMetrics* metrics = ServerMetrics::Create()->release();
  return *metrics;
}

// One unary call as the service records it.
void BM_RecordCall(benchmark::State& state) {
  ServerMetrics& metrics = SharedMetrics();
  // Each thread its own method, as calls of different RPCs would spread.
  const auto method = static_cast<RpcMethod>(state.thread_index() % kRpcMethodCount);
  double seconds = 0.0001;
  for (auto _ : state) {
    metrics.RpcStarted(method);
    metrics.ObserveRpc(method, 0, seconds);
    seconds = seconds < 1 ? seconds * 1.7 : 0.0001;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RecordCall)->Threads(1)->Threads(2)->Threads(4)->UseRealTime();

// One FindPath search: outcome counter and nodes expanded (the same series for every thread).
void BM_RecordSearch(benchmark::State& state) {
  ServerMetrics& metrics = SharedMetrics();
  uint64_t nodes = 1;
  for (auto _ : state) {
    metrics.RecordPathResult(QueryStatus::kComplete);
    metrics.ObserveNodesExpanded(nodes);
    nodes = nodes < (1u << 20) ? nodes * 3 : 1;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RecordSearch)->Threads(1)->Threads(2)->Threads(4)->UseRealTime();

// A scrape of the whole set (what /metrics renders).
void BM_Render(benchmark::State& state) {
  ServerMetrics& metrics = SharedMetrics();
  for (auto _ : state) benchmark::DoNotOptimize(metrics.Render());
}
BENCHMARK(BM_Render);

}  // namespace
}  // namespace waymesh::server

BENCHMARK_MAIN();
