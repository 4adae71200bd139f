#include "waymesh/server/metrics.h"

#include <utility>

#include "absl/status/status.h"

namespace waymesh::server {
namespace {

constexpr std::string_view kMethodNames[kRpcMethodCount] = {
    "FindPath",          "FindPathBatch", "ValidateMove",       "RandomPoint",
    "Raycast",           "NearestPoint",  "GetMapInfo",         "ListMaps",
    "ValidateMoveBatch", "RaycastBatch",  "FindDistanceToWall", "FindPolygonsInCircle",
};

// Spelled as go-grpc-prometheus spells codes.Code.String(), so dashboards match.
constexpr std::string_view kCodeNames[kGrpcCodeCount] = {
    "OK",       "Canceled",        "Unknown",          "InvalidArgument",   "DeadlineExceeded",
    "NotFound", "AlreadyExists",   "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
    "Aborted",  "OutOfRange",      "Unimplemented",    "Internal",          "Unavailable",
    "DataLoss", "Unauthenticated",
};

// Indexed by QueryStatus.
constexpr std::string_view kPathStatusLabels[] = {
    "complete", "partial", "no_path", "start_off_mesh", "end_off_mesh",
};

// Indexed by MoveReason.
constexpr std::string_view kMoveReasonLabels[kMoveReasonCount] = {
    "valid", "from_off_mesh", "to_off_mesh", "blocked_by_wall", "too_far", "wrong_floor",
};

// Assigns *out from a StatusOr, returning its error from the enclosing function.
#define WAYMESH_ASSIGN_OR_RETURN_METRIC(out, expr) \
  do {                                             \
    auto result = (expr);                          \
    if (!result.ok()) return result.status();      \
    out = *result;                                 \
  } while (false)

}  // namespace

std::string_view RpcMethodName(RpcMethod method) {
  const int i = static_cast<int>(method);
  return i < kRpcMethodCount ? kMethodNames[i] : "Unknown";
}

std::string_view GrpcCodeLabel(int grpc_code) {
  return grpc_code >= 0 && grpc_code < kGrpcCodeCount ? kCodeNames[grpc_code] : "Unknown";
}

std::vector<double> DefaultLatencyBuckets() {
  return {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0};
}

std::vector<double> DefaultNodesExpandedBuckets() { return ExponentialBuckets(1, 4, 11); }

absl::StatusOr<std::unique_ptr<ServerMetrics>> ServerMetrics::Create() {
  std::unique_ptr<ServerMetrics> metrics(new ServerMetrics());
  if (absl::Status s = metrics->Register(); !s.ok()) return s;
  return metrics;
}

absl::Status ServerMetrics::Register() {
  if (absl::Status s = RegisterRpcMetrics(); !s.ok()) return s;
  if (absl::Status s = RegisterWaymeshMetrics(); !s.ok()) return s;
  registry_.AddCollector([this] { Collect(); });
  return absl::OkStatus();
}

absl::Status ServerMetrics::RegisterRpcMetrics() {
  const std::vector<std::string> labels = {"grpc_type", "grpc_service", "grpc_method"};
  const std::vector<std::string> code_labels = {"grpc_type", "grpc_service", "grpc_method",
                                                "grpc_code"};
  CounterFamily *started, *handled, *received, *sent;
  HistogramFamily* seconds;
  WAYMESH_ASSIGN_OR_RETURN_METRIC(
      started, registry_.AddCounter("grpc_server_started_total",
                                    "Total number of RPCs started on the server.", labels));
  WAYMESH_ASSIGN_OR_RETURN_METRIC(
      handled,
      registry_.AddCounter("grpc_server_handled_total",
                           "Total number of RPCs completed on the server, regardless of success "
                           "or failure.",
                           code_labels));
  WAYMESH_ASSIGN_OR_RETURN_METRIC(
      received,
      registry_.AddCounter("grpc_server_msg_received_total",
                           "Total number of RPC messages received on the server.", labels));
  WAYMESH_ASSIGN_OR_RETURN_METRIC(
      sent, registry_.AddCounter("grpc_server_msg_sent_total",
                                 "Total number of gRPC messages sent by the server.", labels));
  WAYMESH_ASSIGN_OR_RETURN_METRIC(
      seconds, registry_.AddHistogram("grpc_server_handling_seconds",
                                      "Histogram of response latency (seconds) of gRPC that had "
                                      "been application-level handled by the server.",
                                      labels, DefaultLatencyBuckets()));
  for (int m = 0; m < kRpcMethodCount; ++m) {
    RpcSeries& series = rpc_[m];
    const std::string_view method = kMethodNames[m];
    const std::string_view service = kNavigationServiceName;
    WAYMESH_ASSIGN_OR_RETURN_METRIC(series.started,
                                    started->WithLabels({"unary", service, method}));
    WAYMESH_ASSIGN_OR_RETURN_METRIC(series.msg_received,
                                    received->WithLabels({"unary", service, method}));
    WAYMESH_ASSIGN_OR_RETURN_METRIC(series.msg_sent, sent->WithLabels({"unary", service, method}));
    WAYMESH_ASSIGN_OR_RETURN_METRIC(series.handling_seconds,
                                    seconds->WithLabels({"unary", service, method}));
    for (int c = 0; c < kGrpcCodeCount; ++c) {
      WAYMESH_ASSIGN_OR_RETURN_METRIC(
          series.handled[c], handled->WithLabels({"unary", service, method, kCodeNames[c]}));
    }
  }
  return absl::OkStatus();
}

absl::Status ServerMetrics::RegisterWaymeshMetrics() {
  CounterFamily *paths, *moves, *family;
  HistogramFamily* nodes;
  GaugeFamily* gauge;
  WAYMESH_ASSIGN_OR_RETURN_METRIC(
      paths, registry_.AddCounter("waymesh_path_results_total",
                                  "FindPath searches by outcome (complete, partial, no_path, "
                                  "start_off_mesh, end_off_mesh).",
                                  {"status"}));
  for (size_t i = 0; i < path_results_.size(); ++i) {
    WAYMESH_ASSIGN_OR_RETURN_METRIC(path_results_[i], paths->WithLabels({kPathStatusLabels[i]}));
  }
  WAYMESH_ASSIGN_OR_RETURN_METRIC(
      moves,
      registry_.AddCounter("waymesh_move_validations_total",
                           "ValidateMove verdicts by reason (valid or why not).", {"reason"}));
  for (int i = 0; i < kMoveReasonCount; ++i) {
    WAYMESH_ASSIGN_OR_RETURN_METRIC(move_results_[i], moves->WithLabels({kMoveReasonLabels[i]}));
  }
  WAYMESH_ASSIGN_OR_RETURN_METRIC(
      nodes,
      registry_.AddHistogram("waymesh_search_nodes_expanded", "A* nodes expanded per path search.",
                             {}, DefaultNodesExpandedBuckets()));
  WAYMESH_ASSIGN_OR_RETURN_METRIC(nodes_expanded_, nodes->WithLabels({}));

  struct GaugeSpec {
    Gauge** out;
    const char* name;
    const char* help;
  };
  const GaugeSpec gauges[] = {
      {&queue_depth_, "waymesh_queue_depth", "Requests waiting in the worker queue."},
      {&queue_capacity_, "waymesh_queue_capacity",
       "Requests the worker queue holds before answering RESOURCE_EXHAUSTED."},
      {&workers_, "waymesh_workers", "Worker threads running queries."},
      {&overloaded_, "waymesh_overloaded",
       "1 during an overload episode: the queue overflowed and the pool sheds load."},
      {&cache_bytes_, "waymesh_tile_cache_bytes", "Bytes of navmesh tiles resident in memory."},
      {&cache_budget_bytes_, "waymesh_tile_cache_budget_bytes",
       "Tile cache budget (--tile-cache-bytes)."},
      {&cache_tiles_, "waymesh_tile_cache_tiles", "Navmesh tiles resident in memory."},
      {&maps_loaded_, "waymesh_maps_loaded", "Maps currently served."},
      {&map_files_missing_, "waymesh_map_files_missing",
       "Served maps whose file is gone from the maps directory (unloaded after "
       "--map-removal-grace unless it returns)."},
  };
  for (const GaugeSpec& spec : gauges) {
    WAYMESH_ASSIGN_OR_RETURN_METRIC(gauge, registry_.AddGauge(spec.name, spec.help));
    WAYMESH_ASSIGN_OR_RETURN_METRIC(*spec.out, gauge->WithLabels({}));
  }

  struct CounterSpec {
    Counter** out;
    const char* name;
    const char* help;
  };
  const CounterSpec counters[] = {
      {&rejected_, "waymesh_rejected_total",
       "Calls answered RESOURCE_EXHAUSTED because the worker queue was full."},
      {&cache_hits_, "waymesh_tile_cache_hits_total", "Tile lookups served from memory."},
      {&cache_misses_, "waymesh_tile_cache_misses_total",
       "Tile lookups that read the tile from the map file."},
      {&cache_evictions_, "waymesh_tile_cache_evictions_total",
       "Tiles dropped from the cache to stay under the budget."},
      {&reloads_, "waymesh_map_reloads_total", "Changed map files validated and swapped in."},
      {&reload_failures_, "waymesh_map_reload_failures_total",
       "Map files rejected at startup or reload (the old version keeps serving)."},
      {&map_removals_, "waymesh_map_removals_total",
       "Maps unloaded because their file stayed gone for --map-removal-grace."},
  };
  for (const CounterSpec& spec : counters) {
    WAYMESH_ASSIGN_OR_RETURN_METRIC(family, registry_.AddCounter(spec.name, spec.help));
    WAYMESH_ASSIGN_OR_RETURN_METRIC(*spec.out, family->WithLabels({}));
  }
  return absl::OkStatus();
}

void ServerMetrics::RpcStarted(RpcMethod method) {
  const int m = static_cast<int>(method);
  if (m >= kRpcMethodCount) return;
  rpc_[m].started->Increment();
  rpc_[m].msg_received->Increment();
}

void ServerMetrics::ObserveRpc(RpcMethod method, int grpc_code, double seconds) {
  const int m = static_cast<int>(method);
  if (m >= kRpcMethodCount) return;
  const int code = grpc_code >= 0 && grpc_code < kGrpcCodeCount ? grpc_code : 2;  // Unknown
  RpcSeries& series = rpc_[m];
  series.handled[code]->Increment();
  series.handling_seconds->Observe(seconds);
  if (code == 0) series.msg_sent->Increment();
}

void ServerMetrics::RecordPathResult(QueryStatus status) {
  const size_t i = static_cast<size_t>(status);
  if (i < path_results_.size()) path_results_[i]->Increment();
}

void ServerMetrics::ObserveNodesExpanded(uint64_t nodes) {
  nodes_expanded_->Observe(static_cast<double>(nodes));
}

void ServerMetrics::RecordMoveResult(MoveReason reason) {
  const int i = static_cast<int>(reason);
  if (i < kMoveReasonCount) move_results_[i]->Increment();
}

void ServerMetrics::SetQueueDepth(int64_t depth) { queue_depth_->Set(static_cast<double>(depth)); }

void ServerMetrics::SetWorkerPool(int64_t workers, int64_t queue_capacity) {
  workers_->Set(static_cast<double>(workers));
  queue_capacity_->Set(static_cast<double>(queue_capacity));
}

void ServerMetrics::RecordRejected() { rejected_->Increment(); }

void ServerMetrics::SetOverloaded(bool overloaded) { overloaded_->Set(overloaded ? 1.0 : 0.0); }

void ServerMetrics::SetRegistrySource(std::function<RegistrySnapshot()> source) {
  std::lock_guard<std::mutex> lock(source_mu_);
  source_ = std::move(source);
}

void ServerMetrics::Collect() {
  RegistrySnapshot snap;
  {
    std::lock_guard<std::mutex> lock(source_mu_);
    if (!source_) return;
    snap = source_();
  }
  cache_hits_->SetFromSource(snap.tile_cache_hits);
  cache_misses_->SetFromSource(snap.tile_cache_misses);
  cache_evictions_->SetFromSource(snap.tile_cache_evictions);
  cache_bytes_->Set(static_cast<double>(snap.tile_cache_resident_bytes));
  cache_budget_bytes_->Set(static_cast<double>(snap.tile_cache_budget_bytes));
  cache_tiles_->Set(static_cast<double>(snap.tile_cache_resident_tiles));
  maps_loaded_->Set(static_cast<double>(snap.maps_loaded));
  reloads_->SetFromSource(snap.reloads);
  reload_failures_->SetFromSource(snap.reload_failures);
  map_removals_->SetFromSource(snap.removals);
  map_files_missing_->Set(static_cast<double>(snap.files_missing));
}

}  // namespace waymesh::server
