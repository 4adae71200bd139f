#include "waymesh/server/navigation_service.h"

#include <chrono>
#include <random>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "spdlog/spdlog.h"
#include "waymesh/server/call_interrupt.h"
#include "waymesh/server/move_judge.h"
#include "waymesh/server/proto_conversion.h"
#include "waymesh/server/request_validation.h"

namespace waymesh::server {

// One admitted call: finishes its reactor exactly once, with metrics, and tells the service.
class NavigationService::Call {
 public:
  Call(NavigationService* service, RpcMethod method, grpc::CallbackServerContext* ctx,
       grpc::ServerUnaryReactor* reactor)
      : service_(service),
        method_(method),
        ctx_(ctx),
        reactor_(reactor),
        start_(std::chrono::steady_clock::now()) {}
  // A call dropped without an answer (a bug) still ends, so shutdown never waits for it.
  ~Call() {
    if (!finished_) Finish(grpc::Status(grpc::StatusCode::INTERNAL, "call dropped"));
  }
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  grpc::CallbackServerContext* ctx() const { return ctx_; }
  RpcMethod method() const { return method_; }

  void Finish(const grpc::Status& status) {
    finished_ = true;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    service_->metrics_->ObserveRpc(method_, status.error_code(), seconds);
    if (!status.ok() && spdlog::should_log(spdlog::level::debug)) {
      spdlog::debug("{} from {} failed: code {}: {}", RpcMethodName(method_), ctx_->peer(),
                    int(status.error_code()), status.error_message());
    }
    reactor_->Finish(status);
    // After Finish gRPC may free ctx_, the request and the response: touch none of them.
    service_->Finished();
  }

 private:
  NavigationService* service_;
  RpcMethod method_;
  grpc::CallbackServerContext* ctx_;
  grpc::ServerUnaryReactor* reactor_;
  std::chrono::steady_clock::time_point start_;
  bool finished_ = false;
};

namespace {

grpc::Status Unavailable() {
  return grpc::Status(grpc::StatusCode::UNAVAILABLE, "the server is shutting down");
}

// The answer to a call the pool refused, with why, for the client's log.
grpc::Status Refusal(Admission why, const WorkerPool& pool) {
  switch (why) {
    case Admission::kStopping:
      return Unavailable();
    case Admission::kShedding:
      return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                          "the server is overloaded (calls arrive faster than its workers serve "
                          "them) and is shedding load; retry later, with backoff");
    case Admission::kQueueFull:
    case Admission::kQueued:
      break;
  }
  return grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                      absl::StrCat("all ", pool.workers(), " workers are busy and ",
                                   pool.queue_capacity(), " calls are queued; retry later"));
}

grpc::Status Unauthenticated() {
  return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                      "missing or wrong 'authorization: Bearer <token>' metadata");
}

}  // namespace

NavigationService::NavigationService(const MapRegistry* maps, WorkerPool* pool,
                                     ServerMetrics* metrics, NavigationServiceOptions options)
    : maps_(maps),
      pool_(pool),
      metrics_(metrics),
      options_(std::move(options)),
      token_(options_.auth_token) {}

std::unique_ptr<NavigationService::Call> NavigationService::Begin(
    RpcMethod method, grpc::CallbackServerContext* ctx, grpc::ServerUnaryReactor* reactor) {
  metrics_->RpcStarted(method);
  bool admitted;
  {
    std::lock_guard<std::mutex> lock(mu_);
    // Counted even when refused: Finish() uncounts every call the same way.
    ++in_flight_;
    admitted = admitting_;
  }
  auto call = std::make_unique<Call>(this, method, ctx, reactor);
  if (!admitted) {
    call->Finish(Unavailable());
    return nullptr;
  }
  if (!token_.Allows(ctx->client_metadata())) {
    call->Finish(Unauthenticated());
    return nullptr;
  }
  return call;
}

void NavigationService::Finished() {
  std::lock_guard<std::mutex> lock(mu_);
  if (--in_flight_ == 0) idle_.notify_all();
}

void NavigationService::StopAdmitting() {
  std::lock_guard<std::mutex> lock(mu_);
  admitting_ = false;
}

bool NavigationService::WaitIdle(absl::Time deadline) {
  std::unique_lock<std::mutex> lock(mu_);
  return idle_.wait_until(lock, absl::ToChronoTime(deadline), [this] { return in_flight_ == 0; });
}

int64_t NavigationService::in_flight() const {
  std::lock_guard<std::mutex> lock(mu_);
  return in_flight_;
}

grpc::Status NavigationService::CheckAlive(grpc::CallbackServerContext* ctx) {
  return ToGrpcStatus(
      CallLiveness(ctx->IsCancelled(), ctx->deadline(), std::chrono::system_clock::now()));
}

absl::StatusOr<std::shared_ptr<const ServedMap>> NavigationService::FindMap(
    const std::string& id, absl::string_view field) const {
  absl::StatusOr<std::shared_ptr<const ServedMap>> map = maps_->Find(id);
  if (map.ok() || map.status().code() != absl::StatusCode::kNotFound) return map;
  return absl::NotFoundError(absl::StrCat(field, ": no map '", id, "' is served"));
}

template <typename Work>
void NavigationService::Enqueue(std::unique_ptr<Call> call, Work work) {
  if (grpc::Status alive = CheckAlive(call->ctx()); !alive.ok()) {
    call->Finish(alive);
    return;
  }
  // The task owns the call only if it is queued; a refused task is destroyed unrun.
  Call* raw = call.release();
  const Admission admission =
      pool_->TrySubmit([this, raw, work = std::move(work)](WorkerState& w) mutable {
        std::unique_ptr<Call> c(raw);
        // It may have waited in the queue past its deadline, or its client may have gone.
        if (grpc::Status alive = CheckAlive(c->ctx()); !alive.ok()) {
          c->Finish(alive);
          return;
        }
        if (options_.before_query) options_.before_query(c->method());
        queries_run_.fetch_add(1, std::memory_order_relaxed);
        c->Finish(work(w, c->ctx()));
      });
  if (admission != Admission::kQueued) {
    std::unique_ptr<Call> c(raw);
    if (admission != Admission::kStopping) metrics_->RecordRejected();
    c->Finish(Refusal(admission, *pool_));
  }
}

grpc::Status NavigationService::RunFindPath(WorkerState& w, const ServedMap& map,
                                            const v1::FindPathRequest& r,
                                            grpc::CallbackServerContext* ctx,
                                            v1::FindPathResponse* out) {
  const MapQuery q = Prepare(w, map, r.filter());
  PathOptions options = ToPathOptions(r.options(), options_.max_search_nodes);
  CallInterrupt interrupt(ctx);
  options.interrupt = &interrupt;
  const absl::Status s =
      q.query.FindPath(FromProto(r.start()), FromProto(r.end()), q.filter, options, &w.path);
  if (!s.ok()) return ToGrpcStatus(s);
  ToProto(w.path, out);
  metrics_->RecordPathResult(w.path.status);
  metrics_->ObserveNodesExpanded(w.path.nodes_expanded);
  return grpc::Status::OK;
}

NavigationService::MapQuery NavigationService::Prepare(WorkerState& w, const ServedMap& map,
                                                       const v1::QueryFilter& filter) {
  NavQuery& query = w.queries.For(map.id(), map.version(), map.map());
  return {query, ToQueryFilter(filter, query.map().info())};
}

template <typename Request, typename Validate, typename Run>
grpc::ServerUnaryReactor* NavigationService::ServeMapQuery(RpcMethod method,
                                                           grpc::CallbackServerContext* ctx,
                                                           const Request& request,
                                                           Validate validate, Run run) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
  std::unique_ptr<Call> call = Begin(method, ctx, reactor);
  if (call == nullptr) return reactor;
  if (absl::Status s = validate(request); !s.ok()) {
    call->Finish(ToGrpcStatus(s));
    return reactor;
  }
  auto map = FindMap(request.map_id(), "map_id");
  if (!map.ok()) {
    call->Finish(ToGrpcStatus(map.status()));
    return reactor;
  }
  Enqueue(std::move(call),
          [run = std::move(run), map = *std::move(map)](
              WorkerState& w, grpc::CallbackServerContext* c) { return run(w, *map, c); });
  return reactor;
}

grpc::ServerUnaryReactor* NavigationService::FindPath(grpc::CallbackServerContext* ctx,
                                                      const v1::FindPathRequest* request,
                                                      v1::FindPathResponse* response) {
  return ServeMapQuery(
      RpcMethod::kFindPath, ctx, *request, [](const auto& r) { return ValidateFindPath(r); },
      [this, request, response](WorkerState& w, const ServedMap& map,
                                grpc::CallbackServerContext* c) {
        return RunFindPath(w, map, *request, c, response);
      });
}

grpc::ServerUnaryReactor* NavigationService::FindPathBatch(grpc::CallbackServerContext* ctx,
                                                           const v1::FindPathBatchRequest* request,
                                                           v1::FindPathBatchResponse* response) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
  std::unique_ptr<Call> call = Begin(RpcMethod::kFindPathBatch, ctx, reactor);
  if (call == nullptr) return reactor;
  if (absl::Status s = ValidateFindPathBatch(*request); !s.ok()) {
    call->Finish(ToGrpcStatus(s));
    return reactor;
  }
  // Every map is resolved (and pinned to its version) up front: one batch, one set of maps.
  std::vector<std::shared_ptr<const ServedMap>> maps;
  maps.reserve(request->requests_size());
  for (int i = 0; i < request->requests_size(); ++i) {
    const std::string& id = request->requests(i).map_id();
    if (i > 0 && id == request->requests(i - 1).map_id()) {
      maps.push_back(maps.back());
      continue;
    }
    auto map = FindMap(id, absl::StrCat("requests[", i, "].map_id"));
    if (!map.ok()) {
      call->Finish(ToGrpcStatus(map.status()));
      return reactor;
    }
    maps.push_back(*std::move(map));
  }
  Enqueue(std::move(call), [this, request, response, maps = std::move(maps)](
                               WorkerState& w, grpc::CallbackServerContext* c) {
    CallInterrupt between(c);
    response->mutable_responses()->Reserve(request->requests_size());
    for (int i = 0; i < request->requests_size(); ++i) {
      if (absl::Status s = between.Check(); !s.ok()) return ToGrpcStatus(s);
      grpc::Status s = RunFindPath(w, *maps[i], request->requests(i), c, response->add_responses());
      if (!s.ok()) return s;
    }
    return grpc::Status::OK;
  });
  return reactor;
}

grpc::ServerUnaryReactor* NavigationService::ValidateMove(grpc::CallbackServerContext* ctx,
                                                          const v1::ValidateMoveRequest* request,
                                                          v1::ValidateMoveResponse* response) {
  return ServeMapQuery(
      RpcMethod::kValidateMove, ctx, *request,
      [](const auto& r) { return ValidateValidateMove(r); },
      [this, request, response](WorkerState& w, const ServedMap& map,
                                grpc::CallbackServerContext*) {
        const MapQuery q = Prepare(w, map, request->filter());
        MoveClaim claim;
        claim.from = FromProto(request->from());
        claim.to = FromProto(request->to());
        claim.max_distance = request->max_distance();
        claim.tolerance = request->tolerance();
        claim.extents = ExtentsOr(request->has_extents(), request->extents(), kDefaultMoveExtents);
        absl::StatusOr<MoveVerdict> verdict = JudgeMove(q.query, q.filter, claim, &w.move);
        if (!verdict.ok()) return ToGrpcStatus(verdict.status());
        response->set_verdict(verdict->reason == MoveReason::kNone
                                  ? v1::ValidateMoveResponse::VALID
                                  : v1::ValidateMoveResponse::INVALID);
        response->set_reason(static_cast<v1::ValidateMoveResponse::Reason>(verdict->reason));
        ToProto(verdict->reached, response->mutable_reached());
        response->set_distance(verdict->distance);
        metrics_->RecordMoveResult(verdict->reason);
        return grpc::Status::OK;
      });
}

grpc::ServerUnaryReactor* NavigationService::RandomPoint(grpc::CallbackServerContext* ctx,
                                                         const v1::RandomPointRequest* request,
                                                         v1::RandomPointResponse* response) {
  return ServeMapQuery(
      RpcMethod::kRandomPoint, ctx, *request, [](const auto& r) { return ValidateRandomPoint(r); },
      [this, request, response](WorkerState& w, const ServedMap& map,
                                grpc::CallbackServerContext*) {
        const MapQuery q = Prepare(w, map, request->filter());
        // A seeded call must give the same point on every worker and run: its own generator,
        // fully specified by the standard.
        std::mt19937_64 seeded(request->seed());
        absl::BitGenRef rng =
            request->has_seed() ? absl::BitGenRef(seeded) : absl::BitGenRef(w.rng);
        absl::StatusOr<std::optional<SurfacePoint>> point = std::optional<SurfacePoint>();
        if (request->has_center()) {
          const absl::StatusOr<std::optional<SurfacePoint>> center =
              q.query.NearestPoint(FromProto(request->center()), kDefaultPathExtents, q.filter);
          if (!center.ok()) return ToGrpcStatus(center.status());
          if (*center) {
            point = q.query.RandomPointInCircle(**center, request->radius(), q.filter, rng);
          }
        } else {
          point = q.query.RandomPoint(q.filter, rng);
        }
        if (!point.ok()) return ToGrpcStatus(point.status());
        response->set_found(point->has_value());
        if (*point) {
          ToProto((*point)->pos, response->mutable_position());
          response->set_poly((*point)->poly.bits());
        }
        return grpc::Status::OK;
      });
}

grpc::ServerUnaryReactor* NavigationService::Raycast(grpc::CallbackServerContext* ctx,
                                                     const v1::RaycastRequest* request,
                                                     v1::RaycastResponse* response) {
  return ServeMapQuery(
      RpcMethod::kRaycast, ctx, *request, [](const auto& r) { return ValidateRaycast(r); },
      [this, request, response](WorkerState& w, const ServedMap& map,
                                grpc::CallbackServerContext*) {
        const MapQuery q = Prepare(w, map, request->filter());
        const Vec3 extents =
            ExtentsOr(request->has_extents(), request->extents(), kDefaultMoveExtents);
        const absl::Status s = q.query.Raycast(
            FromProto(request->start()), FromProto(request->end()), q.filter, extents, &w.ray);
        if (!s.ok()) return ToGrpcStatus(s);
        ToProto(w.ray, response);
        return grpc::Status::OK;
      });
}

grpc::ServerUnaryReactor* NavigationService::NearestPoint(grpc::CallbackServerContext* ctx,
                                                          const v1::NearestPointRequest* request,
                                                          v1::NearestPointResponse* response) {
  return ServeMapQuery(
      RpcMethod::kNearestPoint, ctx, *request,
      [](const auto& r) { return ValidateNearestPoint(r); },
      [this, request, response](WorkerState& w, const ServedMap& map,
                                grpc::CallbackServerContext*) {
        const MapQuery q = Prepare(w, map, request->filter());
        const Vec3 pos = FromProto(request->position());
        const absl::StatusOr<std::optional<SurfacePoint>> found = q.query.NearestPoint(
            pos, ExtentsOr(request->has_extents(), request->extents(), kDefaultPathExtents),
            q.filter);
        if (!found.ok()) return ToGrpcStatus(found.status());
        response->set_found(found->has_value());
        if (*found) {
          ToProto((*found)->pos, response->mutable_position());
          response->set_poly((*found)->poly.bits());
          response->set_distance(Distance(pos, (*found)->pos));
        }
        return grpc::Status::OK;
      });
}

void NavigationService::FillMapInfo(const ServedMap& map, v1::MapInfo* out) const {
  const std::shared_ptr<const NavMap> nav = map.map();
  ToProto(nav->info(), out);
  out->set_map_id(map.id());
  out->set_tiles(nav->tile_count());
  out->set_resident_tiles(map.resident_tiles());
  out->set_file_bytes(map.file_bytes());
  out->set_loaded_unix_ms(absl::ToUnixMillis(map.loaded_time()));
  out->set_reloads(map.version() > 0 ? map.version() - 1 : 0);
}

grpc::ServerUnaryReactor* NavigationService::GetMapInfo(grpc::CallbackServerContext* ctx,
                                                        const v1::GetMapInfoRequest* request,
                                                        v1::MapInfo* response) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
  std::unique_ptr<Call> call = Begin(RpcMethod::kGetMapInfo, ctx, reactor);
  if (call == nullptr) return reactor;
  if (absl::Status s = ValidateGetMapInfo(*request); !s.ok()) {
    call->Finish(ToGrpcStatus(s));
    return reactor;
  }
  auto map = FindMap(request->map_id(), "map_id");
  if (!map.ok()) {
    call->Finish(ToGrpcStatus(map.status()));
    return reactor;
  }
  // Metadata only: cheap enough for the handler thread.
  FillMapInfo(**map, response);
  call->Finish(grpc::Status::OK);
  return reactor;
}

grpc::ServerUnaryReactor* NavigationService::ListMaps(grpc::CallbackServerContext* ctx,
                                                      const v1::ListMapsRequest* /*request*/,
                                                      v1::ListMapsResponse* response) {
  grpc::ServerUnaryReactor* reactor = ctx->DefaultReactor();
  std::unique_ptr<Call> call = Begin(RpcMethod::kListMaps, ctx, reactor);
  if (call == nullptr) return reactor;
  for (const std::shared_ptr<const ServedMap>& map : maps_->List()) {
    FillMapInfo(*map, response->add_maps());
  }
  call->Finish(grpc::Status::OK);
  return reactor;
}

}  // namespace waymesh::server
