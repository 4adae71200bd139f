#pragma once
// The standard metric set of waymesh-server: gRPC server metrics named and labelled like
// grpc-ecosystem's go-grpc-prometheus (so existing dashboards work), plus waymesh_* metrics for
// searches, the worker queue and the map registry, build and per-map info, and the standard
// process_* metrics. docs/metrics.md describes each metric. Recorded through prometheus-cpp.
//
// Every hot-path call below works on series resolved at construction (no lookup, no
// allocation): counters and gauges are atomics; a histogram observation takes that series'
// own mutex (prometheus-cpp), uncontended unless two workers record the same series at once.

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "prometheus/counter.h"
#include "prometheus/gauge.h"
#include "prometheus/histogram.h"
#include "prometheus/registry.h"
#include "waymesh/core/query_status.h"

namespace waymesh::server {

// Full gRPC service name, the grpc_service label of every RPC metric.
inline constexpr std::string_view kNavigationServiceName = "waymesh.v1.NavigationService";
inline constexpr std::string_view kObstacleServiceName = "waymesh.v1.ObstacleService";
inline constexpr std::string_view kCrowdServiceName = "waymesh.v1.CrowdService";

// The RPCs of waymesh.v1.NavigationService (all unary), the grpc_method label.
enum class RpcMethod : uint8_t {
  kFindPath,
  kFindPathBatch,
  kValidateMove,
  kRandomPoint,
  kRaycast,
  kNearestPoint,
  kGetMapInfo,
  kListMaps,
  kValidateMoveBatch,
  kRaycastBatch,
  kFindDistanceToWall,
  kFindPolygonsInCircle,
  kPutObstacleLayer,  // the ObstacleService methods from here on
  kUpdateObstacleLayer,
  kDeleteObstacleLayer,
  kGetObstacleLayer,
  kRunCrowd,  // CrowdService: a bidirectional stream
};
inline constexpr int kRpcMethodCount = 17;

// Method name as in the proto ("FindPath").
std::string_view RpcMethodName(RpcMethod method);
// The full name of the service `method` belongs to ("waymesh.v1.NavigationService").
std::string_view RpcServiceName(RpcMethod method);

// grpc_code label for a numeric gRPC status code (0..16) as go-grpc-prometheus spells it:
// "OK", "Canceled", "InvalidArgument", ...; "Unknown" for anything out of range.
std::string_view GrpcCodeLabel(int grpc_code);
inline constexpr int kGrpcCodeCount = 17;

// ValidateMove's outcome; numbered like waymesh.v1.ValidateMoveResponse.Reason, so
// static_cast<MoveReason>(response.reason()) works.
enum class MoveReason : uint8_t {
  kNone = 0,  // the move is valid
  kFromOffMesh = 1,
  kToOffMesh = 2,
  kBlockedByWall = 3,
  kTooFar = 4,
  kWrongFloor = 5,
};
inline constexpr int kMoveReasonCount = 6;

// One served map as waymesh_map_info / waymesh_map_version export it.
struct MapVersionInfo {
  std::string id;
  uint64_t version = 0;     // 1 when first loaded, +1 per reload
  std::string source_hash;  // of the scene the map was built from; may be empty
};

// The obstacle layers of one served map as waymesh_obstacle_* export them.
struct ObstacleMapInfo {
  std::string id;
  uint64_t layers = 0;
  uint64_t obstacles = 0;     // in the newest version of each layer
  uint64_t carved_tiles = 0;  // tiles of those versions that differ from the map's own
};

// What the map registry reports at each scrape (counters are totals since start).
struct RegistrySnapshot {
  uint64_t tile_cache_hits = 0;
  uint64_t tile_cache_misses = 0;
  uint64_t tile_cache_evictions = 0;
  uint64_t tile_cache_resident_bytes = 0;
  uint64_t tile_cache_budget_bytes = 0;
  uint64_t tile_cache_resident_tiles = 0;
  uint64_t maps_loaded = 0;
  uint64_t reloads = 0;              // successful swaps of a changed map file
  uint64_t reload_failures = 0;      // bad files rejected (at startup or on reload)
  uint64_t removals = 0;             // maps unloaded after their file stayed gone for the grace
  uint64_t files_missing = 0;        // served maps whose file is gone now (within the grace)
  std::vector<MapVersionInfo> maps;  // every served map
  std::vector<ObstacleMapInfo> obstacle_maps;  // every map holding obstacle layers
  uint64_t obstacle_resyncs = 0;               // calls that asked the caller to resend a layer
};

// Latency buckets of grpc_server_handling_seconds: 100 µs .. 1 s (1-2.5-5 steps).
std::vector<double> DefaultLatencyBuckets();
// Buckets of waymesh_search_nodes_expanded: 1 .. 4^10 (powers of 4).
std::vector<double> DefaultNodesExpandedBuckets();

// The standard metric set, registered in its own prometheus::Registry. Thread-safe.
class ServerMetrics {
 public:
  // Registers every metric and pre-creates the series of every method and code (zeros are
  // exported before the first call, as go-grpc-prometheus does).
  static absl::StatusOr<std::unique_ptr<ServerMetrics>> Create();

  // A call was received (grpc_server_started_total, grpc_server_msg_received_total).
  void RpcStarted(RpcMethod method);
  // A call finished with `grpc_code` after `seconds` (grpc_server_handled_total,
  // grpc_server_handling_seconds, and grpc_server_msg_sent_total when the code is OK).
  void ObserveRpc(RpcMethod method, int grpc_code, double seconds);
  // One more message of a stream received or sent (grpc_server_msg_received_total /
  // grpc_server_msg_sent_total; unary calls count theirs in RpcStarted and ObserveRpc).
  void StreamMessageReceived(RpcMethod method);
  void StreamMessageSent(RpcMethod method);

  // One FindPath search finished with `status` (waymesh_path_results_total{status}).
  void RecordPathResult(QueryStatus status);
  // A* nodes expanded by one search (waymesh_search_nodes_expanded histogram).
  void ObserveNodesExpanded(uint64_t nodes);
  // One FindPath that reached the search, guided by the map's cluster graph or plain
  // (waymesh_path_search_total{kind}).
  void RecordPathSearch(bool hierarchical);
  // One ValidateMove verdict (waymesh_move_validations_total{reason}).
  void RecordMoveResult(MoveReason reason);

  // One obstacle layer change carved and published in `seconds`
  // (waymesh_obstacle_update_seconds).
  void ObserveObstacleUpdate(double seconds);

  // Requests waiting in the worker queue right now (waymesh_queue_depth).
  void SetQueueDepth(int64_t depth);
  // Pool shape: worker threads and queue capacity (waymesh_workers, waymesh_queue_capacity).
  void SetWorkerPool(int64_t workers, int64_t queue_capacity);
  // A call answered RESOURCE_EXHAUSTED because the queue was full (waymesh_rejected_total).
  void RecordRejected();
  // The pool started (true) or stopped (false) shedding load (waymesh_overloaded).
  void SetOverloaded(bool overloaded);

  // Called at each scrape to refresh the waymesh_tile_cache_* / waymesh_maps_* metrics. Set it
  // once, before serving; the source must stay valid until the metrics stop being rendered.
  void SetRegistrySource(std::function<RegistrySnapshot()> source);

  // Refreshes what the registry source feeds, then renders every metric family (sorted by
  // name) in text exposition format 0.0.4: what /metrics serves.
  std::string Render() const;
  // The underlying registry, to add metrics of one's own (they are rendered too).
  prometheus::Registry& registry() { return registry_; }

 private:
  using Counter = prometheus::Counter;
  using Gauge = prometheus::Gauge;
  using Histogram = prometheus::Histogram;

  ServerMetrics() = default;
  void Register();
  void RegisterRpcMetrics();
  void RegisterWaymeshMetrics();
  void RegisterBuildInfo();
  // Copies the registry source into the mirrored metrics; returns the snapshot for the
  // families built at each scrape.
  RegistrySnapshot Collect() const;

  struct RpcSeries {
    Counter* started = nullptr;
    Counter* msg_received = nullptr;
    Counter* msg_sent = nullptr;
    Histogram* handling_seconds = nullptr;
    std::array<Counter*, kGrpcCodeCount> handled{};
  };

  prometheus::Registry registry_;
  std::array<RpcSeries, kRpcMethodCount> rpc_{};
  std::array<Counter*, 5> path_results_{};  // by QueryStatus
  std::array<Counter*, kMoveReasonCount> move_results_{};
  Histogram* nodes_expanded_ = nullptr;
  Counter* path_search_plain_ = nullptr;
  Counter* path_search_hierarchical_ = nullptr;
  Histogram* obstacle_update_seconds_ = nullptr;
  Counter* obstacle_resyncs_ = nullptr;
  Gauge* queue_depth_ = nullptr;
  Gauge* queue_capacity_ = nullptr;
  Gauge* workers_ = nullptr;
  Gauge* overloaded_ = nullptr;
  Counter* rejected_ = nullptr;

  // Fed by Collect() from the registry source.
  Counter* cache_hits_ = nullptr;
  Counter* cache_misses_ = nullptr;
  Counter* cache_evictions_ = nullptr;
  Gauge* cache_bytes_ = nullptr;
  Gauge* cache_budget_bytes_ = nullptr;
  Gauge* cache_tiles_ = nullptr;
  Gauge* maps_loaded_ = nullptr;
  Counter* reloads_ = nullptr;
  Counter* reload_failures_ = nullptr;
  Counter* map_removals_ = nullptr;
  Gauge* map_files_missing_ = nullptr;

  mutable std::mutex render_mu_;  // one scrape at a time: mirrored counters stay monotonic
  mutable std::mutex source_mu_;
  std::function<RegistrySnapshot()> source_;
};

}  // namespace waymesh::server
