#include "waymesh/server/metrics.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "grpcpp/grpcpp.h"
#include "prometheus/text_serializer.h"
#include "waymesh/server/process_metrics.h"

namespace waymesh::server {
namespace {

constexpr std::string_view kMethodNames[kRpcMethodCount] = {
    "FindPath",          "FindPathBatch",       "ValidateMove",        "RandomPoint",
    "Raycast",           "NearestPoint",        "GetMapInfo",          "ListMaps",
    "ValidateMoveBatch", "RaycastBatch",        "FindDistanceToWall",  "FindPolygonsInCircle",
    "PutObstacleLayer",  "UpdateObstacleLayer", "DeleteObstacleLayer", "GetObstacleLayer",
    "RunCrowd",
};

// Spelled as go-grpc-prometheus spells codes.Code.String(), so dashboards match.
constexpr std::string_view kCodeNames[kGrpcCodeCount] = {
    "OK",       "Canceled",        "Unknown",          "InvalidArgument",   "DeadlineExceeded",
    "NotFound", "AlreadyExists",   "PermissionDenied", "ResourceExhausted", "FailedPrecondition",
    "Aborted",  "OutOfRange",      "Unimplemented",    "Internal",          "Unavailable",
    "DataLoss", "Unauthenticated",
};

// Streams count their messages one by one (StreamMessageReceived / StreamMessageSent).
bool IsStreaming(RpcMethod method) { return method == RpcMethod::kRunCrowd; }

// Indexed by QueryStatus.
constexpr std::string_view kPathStatusLabels[] = {
    "complete", "partial", "no_path", "start_off_mesh", "end_off_mesh",
};

// Indexed by MoveReason.
constexpr std::string_view kMoveReasonLabels[kMoveReasonCount] = {
    "valid", "from_off_mesh", "to_off_mesh", "blocked_by_wall", "too_far", "wrong_floor",
};

// Families are built with the type's Build*() helper; `labels` of every child of a family must
// have the same names (prometheus-cpp sorts them by name when rendering).
template <typename Builder>
auto& Family(Builder builder, prometheus::Registry& registry, const char* name, const char* help) {
  return builder.Name(name).Help(help).Register(registry);
}

// Mirrors a monotonic total kept elsewhere (e.g. the tile cache) into a counter, which
// prometheus-cpp can only increment. Never lowers it. Callers are serialized (render_mu_).
void MirrorTotal(prometheus::Counter* counter, uint64_t total) {
  const double delta = static_cast<double>(total) - counter->Value();
  if (delta > 0) counter->Increment(delta);
}

prometheus::MetricFamily GaugeFamily(const char* name, const char* help) {
  return prometheus::MetricFamily{name, help, prometheus::MetricType::Gauge, {}};
}

void AddGaugeSample(prometheus::MetricFamily* family,
                    std::vector<prometheus::ClientMetric::Label> labels, double value) {
  prometheus::ClientMetric sample;
  sample.label = std::move(labels);
  sample.gauge.value = value;
  family->metric.push_back(std::move(sample));
}

// waymesh_map_info and waymesh_map_version of the maps served now. Built at each scrape rather
// than kept as children, so a map that is unloaded (or a replaced version) drops out at once.
std::vector<prometheus::MetricFamily> MapFamilies(const std::vector<MapVersionInfo>& maps) {
  prometheus::MetricFamily info = GaugeFamily(
      "waymesh_map_info",
      "1 for every served map, labelled with its version and the hash of the scene it was built "
      "from.");
  prometheus::MetricFamily version = GaugeFamily(
      "waymesh_map_version", "Version of each served map: 1 at first load, +1 per reload.");
  for (const MapVersionInfo& map : maps) {
    AddGaugeSample(&info,
                   {{"map", map.id},
                    {"source_hash", map.source_hash},
                    {"version", std::to_string(map.version)}},
                   1);
    AddGaugeSample(&version, {{"map", map.id}}, static_cast<double>(map.version));
  }
  return {std::move(info), std::move(version)};
}

// waymesh_obstacle_layers, waymesh_obstacles and waymesh_obstacle_carved_tiles per map holding
// layers, built at each scrape like the map families.
std::vector<prometheus::MetricFamily> ObstacleFamilies(const std::vector<ObstacleMapInfo>& maps) {
  prometheus::MetricFamily layers =
      GaugeFamily("waymesh_obstacle_layers", "Obstacle layers held per map.");
  prometheus::MetricFamily obstacles =
      GaugeFamily("waymesh_obstacles", "Obstacles per map, over the newest version of each layer.");
  prometheus::MetricFamily tiles = GaugeFamily(
      "waymesh_obstacle_carved_tiles",
      "Tiles carved by obstacles per map (newest layer versions), resident beside the map.");
  for (const ObstacleMapInfo& map : maps) {
    AddGaugeSample(&layers, {{"map", map.id}}, static_cast<double>(map.layers));
    AddGaugeSample(&obstacles, {{"map", map.id}}, static_cast<double>(map.obstacles));
    AddGaugeSample(&tiles, {{"map", map.id}}, static_cast<double>(map.carved_tiles));
  }
  return {std::move(layers), std::move(obstacles), std::move(tiles)};
}

}  // namespace

std::string_view RpcMethodName(RpcMethod method) {
  const int i = static_cast<int>(method);
  return i < kRpcMethodCount ? kMethodNames[i] : "Unknown";
}

std::string_view RpcServiceName(RpcMethod method) {
  if (method == RpcMethod::kRunCrowd) return kCrowdServiceName;
  return method >= RpcMethod::kPutObstacleLayer ? kObstacleServiceName : kNavigationServiceName;
}

std::string_view GrpcCodeLabel(int grpc_code) {
  return grpc_code >= 0 && grpc_code < kGrpcCodeCount ? kCodeNames[grpc_code] : "Unknown";
}

std::vector<double> DefaultLatencyBuckets() {
  return {0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0};
}

std::vector<double> DefaultNodesExpandedBuckets() {
  std::vector<double> bounds;
  for (double bound = 1; bounds.size() < 11; bound *= 4) bounds.push_back(bound);
  return bounds;
}

absl::StatusOr<std::unique_ptr<ServerMetrics>> ServerMetrics::Create() {
  std::unique_ptr<ServerMetrics> metrics(new ServerMetrics());
  // prometheus-cpp reports a bad name, label or bucket list by throwing.
  try {
    metrics->Register();
  } catch (const std::exception& e) {
    return absl::InternalError(absl::StrCat("registering the server metrics: ", e.what()));
  }
  return metrics;
}

void ServerMetrics::Register() {
  RegisterRpcMetrics();
  RegisterWaymeshMetrics();
  RegisterBuildInfo();
}

void ServerMetrics::RegisterRpcMetrics() {
  // The registry reads families in registration order: handled before started, so a scrape
  // never shows more calls handled than started (started - handled = calls in flight >= 0).
  auto& handled = Family(prometheus::BuildCounter(), registry_, "grpc_server_handled_total",
                         "Total number of RPCs completed on the server, regardless of success "
                         "or failure.");
  auto& started = Family(prometheus::BuildCounter(), registry_, "grpc_server_started_total",
                         "Total number of RPCs started on the server.");
  auto& received = Family(prometheus::BuildCounter(), registry_, "grpc_server_msg_received_total",
                          "Total number of RPC messages received on the server.");
  auto& sent = Family(prometheus::BuildCounter(), registry_, "grpc_server_msg_sent_total",
                      "Total number of gRPC messages sent by the server.");
  auto& seconds = Family(prometheus::BuildHistogram(), registry_, "grpc_server_handling_seconds",
                         "Histogram of response latency (seconds) of gRPC that had been "
                         "application-level handled by the server.");
  const std::vector<double> latency_buckets = DefaultLatencyBuckets();
  for (int m = 0; m < kRpcMethodCount; ++m) {
    const prometheus::Labels labels = {
        {"grpc_type", IsStreaming(RpcMethod(m)) ? "bidi_stream" : "unary"},
        {"grpc_service", std::string(RpcServiceName(RpcMethod(m)))},
        {"grpc_method", std::string(kMethodNames[m])}};
    RpcSeries& series = rpc_[m];
    series.started = &started.Add(labels);
    series.msg_received = &received.Add(labels);
    series.msg_sent = &sent.Add(labels);
    series.handling_seconds = &seconds.Add(labels, latency_buckets);
    for (int c = 0; c < kGrpcCodeCount; ++c) {
      prometheus::Labels code_labels = labels;
      code_labels.emplace("grpc_code", std::string(kCodeNames[c]));
      series.handled[c] = &handled.Add(code_labels);
    }
  }
}

void ServerMetrics::RegisterWaymeshMetrics() {
  auto& paths = Family(prometheus::BuildCounter(), registry_, "waymesh_path_results_total",
                       "FindPath searches by outcome (complete, partial, no_path, "
                       "start_off_mesh, end_off_mesh).");
  for (size_t i = 0; i < path_results_.size(); ++i) {
    path_results_[i] = &paths.Add({{"status", std::string(kPathStatusLabels[i])}});
  }
  auto& moves = Family(prometheus::BuildCounter(), registry_, "waymesh_move_validations_total",
                       "ValidateMove verdicts by reason (valid or why not).");
  for (int i = 0; i < kMoveReasonCount; ++i) {
    move_results_[i] = &moves.Add({{"reason", std::string(kMoveReasonLabels[i])}});
  }
  auto& searches = Family(prometheus::BuildCounter(), registry_, "waymesh_path_search_total",
                          "FindPath searches by kind: hierarchical (guided by the map's cluster "
                          "graph) or plain (another filter, a short path, or no graph).");
  path_search_plain_ = &searches.Add({{"kind", "plain"}});
  path_search_hierarchical_ = &searches.Add({{"kind", "hierarchical"}});
  nodes_expanded_ = &Family(prometheus::BuildHistogram(), registry_,
                            "waymesh_search_nodes_expanded", "A* nodes expanded per path search.")
                         .Add({}, DefaultNodesExpandedBuckets());
  obstacle_update_seconds_ =
      &Family(prometheus::BuildHistogram(), registry_, "waymesh_obstacle_update_seconds",
              "Time to carve and publish one obstacle layer change (Put or Update).")
           .Add({}, DefaultLatencyBuckets());

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
    *spec.out = &Family(prometheus::BuildGauge(), registry_, spec.name, spec.help).Add({});
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
      {&obstacle_resyncs_, "waymesh_obstacle_resyncs_total",
       "Calls answered FAILED_PRECONDITION because this replica lacks the obstacle layer "
       "version named: each asks the caller to put the layer again."},
  };
  for (const CounterSpec& spec : counters) {
    *spec.out = &Family(prometheus::BuildCounter(), registry_, spec.name, spec.help).Add({});
  }
}

void ServerMetrics::RegisterBuildInfo() {
  Family(prometheus::BuildGauge(), registry_, "waymesh_build_info",
         "Always 1; the labels say which build runs: its version and the gRPC and compiler "
         "it was built with.")
      .Add({{"version", WAYMESH_VERSION_STRING},
            {"grpc_version", grpc::Version()},
            {"compiler", __VERSION__}})
      .Set(1);
}

void ServerMetrics::RpcStarted(RpcMethod method) {
  const int m = static_cast<int>(method);
  if (m >= kRpcMethodCount) return;
  rpc_[m].started->Increment();
  if (!IsStreaming(method)) rpc_[m].msg_received->Increment();
}

void ServerMetrics::ObserveRpc(RpcMethod method, int grpc_code, double seconds) {
  const int m = static_cast<int>(method);
  if (m >= kRpcMethodCount) return;
  const int code = grpc_code >= 0 && grpc_code < kGrpcCodeCount ? grpc_code : 2;  // Unknown
  RpcSeries& series = rpc_[m];
  series.handled[code]->Increment();
  series.handling_seconds->Observe(seconds);
  if (code == 0 && !IsStreaming(method)) series.msg_sent->Increment();
}

void ServerMetrics::StreamMessageReceived(RpcMethod method) {
  const int m = static_cast<int>(method);
  if (m < kRpcMethodCount) rpc_[m].msg_received->Increment();
}

void ServerMetrics::StreamMessageSent(RpcMethod method) {
  const int m = static_cast<int>(method);
  if (m < kRpcMethodCount) rpc_[m].msg_sent->Increment();
}

void ServerMetrics::RecordPathResult(QueryStatus status) {
  const size_t i = static_cast<size_t>(status);
  if (i < path_results_.size()) path_results_[i]->Increment();
}

void ServerMetrics::ObserveNodesExpanded(uint64_t nodes) {
  nodes_expanded_->Observe(static_cast<double>(nodes));
}

void ServerMetrics::RecordPathSearch(bool hierarchical) {
  (hierarchical ? path_search_hierarchical_ : path_search_plain_)->Increment();
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

void ServerMetrics::ObserveObstacleUpdate(double seconds) {
  obstacle_update_seconds_->Observe(seconds);
}

RegistrySnapshot ServerMetrics::Collect() const {
  RegistrySnapshot snap;
  {
    std::lock_guard<std::mutex> lock(source_mu_);
    if (!source_) return {};
    snap = source_();
  }
  MirrorTotal(cache_hits_, snap.tile_cache_hits);
  MirrorTotal(cache_misses_, snap.tile_cache_misses);
  MirrorTotal(cache_evictions_, snap.tile_cache_evictions);
  cache_bytes_->Set(static_cast<double>(snap.tile_cache_resident_bytes));
  cache_budget_bytes_->Set(static_cast<double>(snap.tile_cache_budget_bytes));
  cache_tiles_->Set(static_cast<double>(snap.tile_cache_resident_tiles));
  maps_loaded_->Set(static_cast<double>(snap.maps_loaded));
  MirrorTotal(reloads_, snap.reloads);
  MirrorTotal(reload_failures_, snap.reload_failures);
  MirrorTotal(map_removals_, snap.removals);
  map_files_missing_->Set(static_cast<double>(snap.files_missing));
  MirrorTotal(obstacle_resyncs_, snap.obstacle_resyncs);
  return snap;
}

std::string ServerMetrics::Render() const {
  std::vector<prometheus::MetricFamily> families;
  {
    std::lock_guard<std::mutex> lock(render_mu_);
    const RegistrySnapshot snap = Collect();
    families = MapFamilies(snap.maps);
    std::vector<prometheus::MetricFamily> obstacles = ObstacleFamilies(snap.obstacle_maps);
    std::move(obstacles.begin(), obstacles.end(), std::back_inserter(families));
  }
  std::vector<prometheus::MetricFamily> registered = registry_.Collect();
  std::vector<prometheus::MetricFamily> process = CollectProcessMetrics();
  std::move(registered.begin(), registered.end(), std::back_inserter(families));
  std::move(process.begin(), process.end(), std::back_inserter(families));
  std::sort(families.begin(), families.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  return prometheus::TextSerializer().Serialize(families);
}

}  // namespace waymesh::server
