#pragma once
// waymesh.v1.Navigation on gRPC's callback API. A handler never blocks: it checks the call
// (draining, bearer token, every request field, the map id, deadline and cancellation) and
// hands the query to the bounded WorkerPool, whose worker finishes the reactor. A full queue
// answers RESOURCE_EXHAUSTED at once. Workers check the deadline and cancellation again when
// they pick the call up and, through a QueryInterrupt, while a long search runs; a cancelled
// or expired call stops there. GetMapInfo and ListMaps read registry metadata only and are
// answered on the handler thread.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "absl/time/time.h"
#include "grpcpp/grpcpp.h"
#include "waymesh/server/bearer_token.h"
#include "waymesh/server/map_registry.h"
#include "waymesh/server/metrics.h"
#include "waymesh/server/worker_pool.h"
#include "waymesh/v1/navigation.grpc.pb.h"

namespace waymesh::server {

struct NavigationServiceOptions {
  // Node cap of every search (requests may ask for fewer); must match the workers' NavQuery.
  uint32_t max_search_nodes = 65536;
  // Bearer token every call must carry; empty = no check.
  std::string auth_token;
  // Test seam: runs on the worker right before an admitted call's query (after the deadline
  // and cancellation checks). Lets tests hold workers busy deterministically.
  std::function<void(RpcMethod)> before_query;
};

class NavigationService final : public v1::Navigation::CallbackService {
 public:
  // `maps`, `pool` and `metrics` must outlive the service and every call it admitted.
  NavigationService(const MapRegistry* maps, WorkerPool* pool, ServerMetrics* metrics,
                    NavigationServiceOptions options);

  grpc::ServerUnaryReactor* FindPath(grpc::CallbackServerContext* ctx,
                                     const v1::FindPathRequest* request,
                                     v1::FindPathResponse* response) override;
  grpc::ServerUnaryReactor* FindPathBatch(grpc::CallbackServerContext* ctx,
                                          const v1::FindPathBatchRequest* request,
                                          v1::FindPathBatchResponse* response) override;
  grpc::ServerUnaryReactor* ValidateMove(grpc::CallbackServerContext* ctx,
                                         const v1::ValidateMoveRequest* request,
                                         v1::ValidateMoveResponse* response) override;
  grpc::ServerUnaryReactor* RandomPoint(grpc::CallbackServerContext* ctx,
                                        const v1::RandomPointRequest* request,
                                        v1::RandomPointResponse* response) override;
  grpc::ServerUnaryReactor* Raycast(grpc::CallbackServerContext* ctx,
                                    const v1::RaycastRequest* request,
                                    v1::RaycastResponse* response) override;
  grpc::ServerUnaryReactor* NearestPoint(grpc::CallbackServerContext* ctx,
                                         const v1::NearestPointRequest* request,
                                         v1::NearestPointResponse* response) override;
  grpc::ServerUnaryReactor* GetMapInfo(grpc::CallbackServerContext* ctx,
                                       const v1::GetMapInfoRequest* request,
                                       v1::MapInfo* response) override;
  grpc::ServerUnaryReactor* ListMaps(grpc::CallbackServerContext* ctx,
                                     const v1::ListMapsRequest* request,
                                     v1::ListMapsResponse* response) override;

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

  // Starts a call: counts it, refuses it when draining or unauthenticated. Null when refused
  // (the reactor is finished already).
  std::unique_ptr<Call> Begin(RpcMethod method, grpc::CallbackServerContext* ctx,
                              grpc::ServerUnaryReactor* reactor);
  // Deadline / cancellation check before queueing and when a worker picks the call up.
  static grpc::Status CheckAlive(grpc::CallbackServerContext* ctx);
  // Queues `work` (grpc::Status(WorkerState&, grpc::CallbackServerContext*)) for a worker, or
  // finishes the call: DEADLINE_EXCEEDED / CANCELLED when it is over already,
  // RESOURCE_EXHAUSTED when the queue is full.
  template <typename Work>
  void Enqueue(std::unique_ptr<Call> call, Work work);
  // Every query on one map has this shape: begin, validate(request), resolve its map_id, queue
  // run(WorkerState&, const ServedMap&, grpc::CallbackServerContext*) on a worker.
  template <typename Request, typename Validate, typename Run>
  grpc::ServerUnaryReactor* ServeMapQuery(RpcMethod method, grpc::CallbackServerContext* ctx,
                                          const Request& request, Validate validate, Run run);
  // The map serving `id`, or the NOT_FOUND status.
  absl::StatusOr<std::shared_ptr<const ServedMap>> FindMap(const std::string& id,
                                                           absl::string_view field) const;
  void FillMapInfo(const ServedMap& map, v1::MapInfo* out) const;
  void Finished();

  // What every query on one map starts with: the worker's query object for the map's
  // version and the request's filter over the map's areas.
  struct MapQuery {
    NavQuery& query;
    QueryFilter filter;
  };
  static MapQuery Prepare(WorkerState& w, const ServedMap& map, const v1::QueryFilter& filter);

  grpc::Status RunFindPath(WorkerState& w, const ServedMap& map, const v1::FindPathRequest& r,
                           grpc::CallbackServerContext* ctx, v1::FindPathResponse* out);

  const MapRegistry* maps_;
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
