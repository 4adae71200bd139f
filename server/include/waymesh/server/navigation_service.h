#pragma once
// waymesh.v1.NavigationService on gRPC's callback API. A handler never blocks: it checks the call
// (draining, bearer token, every request field, the map id, deadline and cancellation) and
// hands the query to the bounded WorkerPool, whose worker finishes the reactor. A full queue
// answers RESOURCE_EXHAUSTED at once. Workers check the deadline and cancellation again when
// they pick the call up and, through a QueryInterrupt, while a long search runs; a cancelled
// or expired call stops there. GetMapInfo and ListMaps read registry metadata only and are
// answered on the handler thread.
//
// Every method is registered raw (bytes in, bytes out): the service parses requests and
// serializes responses itself. gRPC's generated handlers answer a request they cannot parse
// with a bare UNIMPLEMENTED that never reaches the service (so no metric sees it), and a
// response over the send limit fails after the service counted it OK. Here a request that
// does not parse is INVALID_ARGUMENT and a response over --max-message-bytes is
// RESOURCE_EXHAUSTED, both answered and counted like any other call.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "absl/functional/any_invocable.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"
#include "waymesh/server/bearer_token.h"
#include "waymesh/server/map_registry.h"
#include "waymesh/server/metrics.h"
#include "waymesh/server/obstacle_layers.h"
#include "waymesh/server/path_heat_ring.h"
#include "waymesh/server/worker_pool.h"
#include "waymesh/v1/navigation.grpc.pb.h"

namespace waymesh::server {

// The generated service with every method taking and returning raw bytes.
using RawNavigationService = v1::NavigationService::WithRawCallbackMethod_FindPath<
    v1::NavigationService::WithRawCallbackMethod_FindPathBatch<
        v1::NavigationService::WithRawCallbackMethod_ValidateMove<
            v1::NavigationService::WithRawCallbackMethod_ValidateMoveBatch<
                v1::NavigationService::WithRawCallbackMethod_RandomPoint<
                    v1::NavigationService::WithRawCallbackMethod_Raycast<
                        v1::NavigationService::WithRawCallbackMethod_RaycastBatch<
                            v1::NavigationService::WithRawCallbackMethod_NearestPoint<
                                v1::NavigationService::WithRawCallbackMethod_FindDistanceToWall<
                                    v1::NavigationService::
                                        WithRawCallbackMethod_FindPolygonsInCircle<
                                            v1::NavigationService::WithRawCallbackMethod_GetMapInfo<
                                                v1::NavigationService::
                                                    WithRawCallbackMethod_ListMaps<
                                                        v1::NavigationService::Service>>>>>>>>>>>>;

struct NavigationServiceOptions {
  // Node cap of every search (requests may ask for fewer); must match the workers' NavQuery.
  uint32_t max_search_nodes = 65536;
  // Bearer token every call must carry; empty = no check.
  std::string auth_token;
  // Largest response the service sends (--max-message-bytes); a larger one is answered
  // RESOURCE_EXHAUSTED.
  uint64_t max_response_bytes = 4 << 20;
  // Test seam: runs on the worker right before an admitted call's query (after the deadline
  // and cancellation checks). Lets tests hold workers busy deterministically.
  std::function<void(RpcMethod)> before_query;
  // Where answered FindPath calls are recorded for the viewer's heat map; null = nowhere. Must
  // outlive the service.
  PathHeatRing* path_heat = nullptr;
  // Where obstacle layer changes run (ServeChange); null = on the query pool. Must outlive the
  // service and every call it admitted.
  WorkerPool* change_pool = nullptr;
};

class NavigationService final : public RawNavigationService {
 public:
  // `maps`, `layers`, `pool` and `metrics` must outlive the service and every call it admitted.
  NavigationService(const MapRegistry* maps, ObstacleLayers* layers, WorkerPool* pool,
                    ServerMetrics* metrics, NavigationServiceOptions options);

  // The RPCs, each on its request and response bytes (one handler file per concern:
  // path_handlers.cc, move_handlers.cc, surface_handlers.cc, wall_handlers.cc,
  // map_info_handlers.cc).
  grpc::ServerUnaryReactor* FindPath(grpc::CallbackServerContext* ctx,
                                     const grpc::ByteBuffer* request,
                                     grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* FindPathBatch(grpc::CallbackServerContext* ctx,
                                          const grpc::ByteBuffer* request,
                                          grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ValidateMove(grpc::CallbackServerContext* ctx,
                                         const grpc::ByteBuffer* request,
                                         grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ValidateMoveBatch(grpc::CallbackServerContext* ctx,
                                              const grpc::ByteBuffer* request,
                                              grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* RandomPoint(grpc::CallbackServerContext* ctx,
                                        const grpc::ByteBuffer* request,
                                        grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* Raycast(grpc::CallbackServerContext* ctx,
                                    const grpc::ByteBuffer* request,
                                    grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* RaycastBatch(grpc::CallbackServerContext* ctx,
                                         const grpc::ByteBuffer* request,
                                         grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* NearestPoint(grpc::CallbackServerContext* ctx,
                                         const grpc::ByteBuffer* request,
                                         grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* FindDistanceToWall(grpc::CallbackServerContext* ctx,
                                               const grpc::ByteBuffer* request,
                                               grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* FindPolygonsInCircle(grpc::CallbackServerContext* ctx,
                                                 const grpc::ByteBuffer* request,
                                                 grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* GetMapInfo(grpc::CallbackServerContext* ctx,
                                       const grpc::ByteBuffer* request,
                                       grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* ListMaps(grpc::CallbackServerContext* ctx,
                                     const grpc::ByteBuffer* request,
                                     grpc::ByteBuffer* response) override;

  // Serves one call of another service of this server (ObstacleService) on this one's
  // machinery: admission, drain, bearer token, request parsing, metrics, and the worker pool,
  // where `work` (absl::Status(const Request&, Response*)) runs. navigation_call.h.
  template <typename Request, typename Response, typename Work>
  grpc::ServerUnaryReactor* ServeOnWorker(RpcMethod method, grpc::CallbackServerContext* ctx,
                                          const grpc::ByteBuffer* request,
                                          grpc::ByteBuffer* response, Work work);
  // As ServeOnWorker, for a call that changes an obstacle layer: it runs on the change pool
  // (NavigationServiceOptions::change_pool), in arrival order, neither waiting behind queries
  // nor shed with them, so a caller's chain of versions is not broken by query load.
  template <typename Request, typename Response, typename Work>
  grpc::ServerUnaryReactor* ServeChange(RpcMethod method, grpc::CallbackServerContext* ctx,
                                        const grpc::ByteBuffer* request, grpc::ByteBuffer* response,
                                        Work work);
  // The served map a request names (map_id, agent_type): NOT_FOUND with MAP_NOT_FOUND or
  // AGENT_TYPE_NOT_FOUND naming what is served.
  absl::StatusOr<std::shared_ptr<const ServedMap>> FindMap(const std::string& map_id,
                                                           const std::string& agent_type) const;

  // What a streaming service of this server (CrowdService) asks before it opens a stream: the
  // status to refuse it with (draining, bad bearer token), or OK.
  absl::Status CheckAdmission(const grpc::CallbackServerContext* ctx) const;
  // The served map, at one version of one obstacle layer when `obstacles.layer` is not empty
  // (FAILED_PRECONDITION with a resync reason when this replica does not hold that version).
  absl::StatusOr<std::shared_ptr<const ServedMap>> ResolveMap(
      const std::string& map_id, const std::string& agent_type,
      const v1::ObstacleLayerRef& obstacles) const;

  // What an in-process caller (the map viewer) gets: one query run as its RPC runs it (the same
  // validation, map and obstacle-layer resolution and query code, on the worker pool within its
  // queue limits), without the transport, the bearer token, the RPC metrics or a deadline (the
  // node limit bounds a search). `done` runs exactly once: on a worker, or at once when the
  // call is refused (draining, queue full). `request` and `response` must live until then.
  using LocalDone = absl::AnyInvocable<void(absl::Status) &&>;
  void RunLocal(const v1::FindPathRequest& request, v1::FindPathResponse* response, LocalDone done);
  void RunLocal(const v1::RaycastRequest& request, v1::RaycastResponse* response, LocalDone done);
  void RunLocal(const v1::ValidateMoveRequest& request, v1::ValidateMoveResponse* response,
                LocalDone done);
  void RunLocal(const v1::NearestPointRequest& request, v1::NearestPointResponse* response,
                LocalDone done);

  // From now on new calls fail with UNAVAILABLE; admitted calls run to the end.
  void StopAdmitting();
  // Waits until no admitted call is unfinished, or `deadline`; true when idle.
  bool WaitIdle(absl::Time deadline);
  // Admitted calls not finished yet.
  int64_t in_flight() const;
  // Queries that reached a query object (calls rejected or expired before running do not).
  uint64_t queries_run() const { return queries_run_.load(std::memory_order_relaxed); }

 private:
  class Call;
  template <typename Request, typename Response>
  class TypedCall;
  // What a query on one map runs on a worker: fills the response or says why it cannot.
  template <typename Request, typename Response>
  using RunMethod = absl::Status (NavigationService::*)(WorkerState&, const ServedMap&,
                                                        grpc::CallbackServerContext*,
                                                        const Request&, Response*);
  template <typename Request>
  using ValidateFunction = absl::Status (*)(const Request&);
  class CountedReactor;
  // RunLocal's shape: refused when draining, else validated, resolved and run on a worker.
  template <typename Request, typename Response>
  void Local(const Request& request, Response* response, ValidateFunction<Request> validate,
             RunMethod<Request, Response> run, LocalDone done);

  // The reactor of a new call, counted in in_flight() until gRPC is done with the call (its
  // status sent), so a drain never cuts a status still on its way to the client.
  grpc::ServerUnaryReactor* NewReactor();

  // Starts a call: refuses it when draining or unauthenticated, parses its request
  // (INVALID_ARGUMENT when the bytes are not a Request). Null when refused (the reactor is
  // finished already).
  template <typename Request, typename Response>
  std::unique_ptr<TypedCall<Request, Response>> Begin(RpcMethod method,
                                                      grpc::CallbackServerContext* ctx,
                                                      grpc::ServerUnaryReactor* reactor,
                                                      const grpc::ByteBuffer* request,
                                                      grpc::ByteBuffer* response);
  // Deadline / cancellation check before queueing and when a worker picks the call up.
  static absl::Status CheckAlive(grpc::CallbackServerContext* ctx);
  // Queues `work` (absl::Status(WorkerState&, grpc::CallbackServerContext*)) for a worker of
  // `pool`, or finishes the call: DEADLINE_EXCEEDED / CANCELLED when it is over already,
  // RESOURCE_EXHAUSTED when the queue is full.
  template <typename Work>
  void Enqueue(WorkerPool& pool, std::unique_ptr<Call> call, Work work);
  // The shape of every call served on a worker: begin it, `check` its request on the handler
  // thread (absl::Status(const Request&): cheap checks, answered without queueing), then queue
  // `work` (absl::Status(WorkerState&, grpc::CallbackServerContext*, const Request&,
  // Response*)) on `pool`.
  template <typename Request, typename Response, typename Check, typename Work>
  grpc::ServerUnaryReactor* Serve(WorkerPool& pool, RpcMethod method,
                                  grpc::CallbackServerContext* ctx, const grpc::ByteBuffer* request,
                                  grpc::ByteBuffer* response, Check check, Work work);
  // Serve's shape on `pool` for a call with no request check: `work` is
  // absl::Status(const Request&, Response*).
  template <typename Request, typename Response, typename Work>
  grpc::ServerUnaryReactor* ServeUnchecked(WorkerPool& pool, RpcMethod method,
                                           grpc::CallbackServerContext* ctx,
                                           const grpc::ByteBuffer* request,
                                           grpc::ByteBuffer* response, Work work);
  // Every query on one map has this shape: validate the request, then on a worker resolve its
  // map (an obstacle layer version may need carving on a reloaded map: never on the handler
  // thread) and `run`.
  template <typename Request, typename Response>
  grpc::ServerUnaryReactor* ServeMapQuery(RpcMethod method, grpc::CallbackServerContext* ctx,
                                          const grpc::ByteBuffer* request,
                                          grpc::ByteBuffer* response,
                                          ValidateFunction<Request> validate,
                                          RunMethod<Request, Response> run);
  // A batch of such queries in one call: each item is validated, resolved and run on its own
  // (on the worker) and fails alone (its google.rpc.Status in the item); only the call's own
  // troubles (batch size, deadline, cancellation, overload) fail the call.
  template <typename BatchRequest, typename BatchResponse, typename Request, typename Response>
  grpc::ServerUnaryReactor* ServeBatch(RpcMethod method, grpc::CallbackServerContext* ctx,
                                       const grpc::ByteBuffer* request, grpc::ByteBuffer* response,
                                       ValidateFunction<Request> validate,
                                       RunMethod<Request, Response> run);
  // A batch item's map (pinned to one version for the whole call), or why it has none.
  struct BatchItem {
    std::shared_ptr<const ServedMap> map;
    absl::Status error;
  };
  // Every item of a batch validated and its map resolved, all at once so that a reload in the
  // middle of the call never mixes map versions in it.
  template <typename BatchRequest, typename Request>
  std::vector<BatchItem> ResolveBatch(const BatchRequest& in,
                                      ValidateFunction<Request> validate) const;
  // The map a query runs on: the one FindMap finds, or the version of the obstacle layer the
  // request names on it (FAILED_PRECONDITION OBSTACLE_LAYER_VERSION_UNKNOWN when not held).
  template <typename Request>
  absl::StatusOr<std::shared_ptr<const ServedMap>> QueryMap(const Request& request) const;
  // The map a valid request names: `validate`'s error, FindMap's, or the map.
  template <typename Request>
  absl::StatusOr<std::shared_ptr<const ServedMap>> CheckedMap(
      const Request& request, ValidateFunction<Request> validate) const;
  void FillMapInfo(const ServedMap& map, v1::MapInfo* out) const;
  void Finished();

  // What every query on one map starts with: the worker's query object for the map's
  // version and the request's filter over the map's areas.
  struct MapQuery {
    NavQuery& query;
    QueryFilter filter;
  };
  static MapQuery Prepare(WorkerState& w, const ServedMap& map, const v1::QueryFilter& filter);

  // The queries, one per RPC; batches run the same ones per item.
  absl::Status RunFindPath(WorkerState& w, const ServedMap& map, grpc::CallbackServerContext* ctx,
                           const v1::FindPathRequest& r, v1::FindPathResponse* out);
  absl::Status RunValidateMove(WorkerState& w, const ServedMap& map,
                               grpc::CallbackServerContext* ctx, const v1::ValidateMoveRequest& r,
                               v1::ValidateMoveResponse* out);
  absl::Status RunRandomPoint(WorkerState& w, const ServedMap& map,
                              grpc::CallbackServerContext* ctx, const v1::RandomPointRequest& r,
                              v1::RandomPointResponse* out);
  absl::Status RunRaycast(WorkerState& w, const ServedMap& map, grpc::CallbackServerContext* ctx,
                          const v1::RaycastRequest& r, v1::RaycastResponse* out);
  absl::Status RunNearestPoint(WorkerState& w, const ServedMap& map,
                               grpc::CallbackServerContext* ctx, const v1::NearestPointRequest& r,
                               v1::NearestPointResponse* out);
  absl::Status RunFindDistanceToWall(WorkerState& w, const ServedMap& map,
                                     grpc::CallbackServerContext* ctx,
                                     const v1::FindDistanceToWallRequest& r,
                                     v1::FindDistanceToWallResponse* out);
  absl::Status RunFindPolygonsInCircle(WorkerState& w, const ServedMap& map,
                                       grpc::CallbackServerContext* ctx,
                                       const v1::FindPolygonsInCircleRequest& r,
                                       v1::FindPolygonsInCircleResponse* out);

  const MapRegistry* maps_;
  ObstacleLayers* layers_;
  WorkerPool* pool_;
  ServerMetrics* metrics_;
  const NavigationServiceOptions options_;
  const BearerToken token_;

  mutable std::mutex mu_;
  std::condition_variable idle_;
  bool admitting_ = true;
  int64_t in_flight_ = 0;
  std::atomic<uint64_t> queries_run_{0};
};

}  // namespace waymesh::server
