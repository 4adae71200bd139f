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

// One admitted call: finishes its reactor exactly once, serializing the response of an OK
// answer (RESOURCE_EXHAUSTED instead when it is over the size limit), with metrics, and tells
// the service.
class NavigationService::Call {
 public:
  Call(NavigationService* service, RpcMethod method, grpc::CallbackServerContext* ctx,
       grpc::ServerUnaryReactor* reactor, grpc::ByteBuffer* raw_response)
      : service_(service),
        method_(method),
        ctx_(ctx),
        reactor_(reactor),
        raw_response_(raw_response),
        start_(std::chrono::steady_clock::now()) {}
  virtual ~Call() = default;
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  grpc::CallbackServerContext* ctx() const { return ctx_; }
  RpcMethod method() const { return method_; }

  void Finish(grpc::Status status) {
    finished_ = true;
    if (status.ok()) status = SerializeResponse();
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    service_->metrics_->ObserveRpc(method_, status.error_code(), seconds);
    if (!status.ok() && spdlog::should_log(spdlog::level::debug)) {
      spdlog::debug("{} from {} failed: code {}: {}", RpcMethodName(method_), ctx_->peer(),
                    int(status.error_code()), status.error_message());
    }
    reactor_->Finish(status);
    // After Finish gRPC may free ctx_ and the buffers: touch none of them. The reactor tells
    // the service when the call is over.
  }

 protected:
  virtual const google::protobuf::Message& response() const = 0;
  // A call dropped without an answer (a bug) still ends, so shutdown never waits for it.
  // Called by the derived destructor, while the response still exists.
  void FinishIfDropped() {
    if (!finished_) Finish(grpc::Status(grpc::StatusCode::INTERNAL, "call dropped"));
  }

 private:
  grpc::Status SerializeResponse() {
    const google::protobuf::Message& message = response();
    const size_t bytes = message.ByteSizeLong();
    if (bytes > service_->options_.max_response_bytes) {
      return grpc::Status(
          grpc::StatusCode::RESOURCE_EXHAUSTED,
          absl::StrCat("the response is ", bytes, " bytes, over the server's limit of ",
                       service_->options_.max_response_bytes,
                       " (--max-message-bytes): ask for fewer paths or waypoints"));
    }
    bool own_buffer = false;
    return grpc::SerializationTraits<google::protobuf::Message>::Serialize(message, raw_response_,
                                                                           &own_buffer);
  }

  NavigationService* service_;
  RpcMethod method_;
  grpc::CallbackServerContext* ctx_;
  grpc::ServerUnaryReactor* reactor_;
  grpc::ByteBuffer* raw_response_;
  std::chrono::steady_clock::time_point start_;
  bool finished_ = false;
};

// A call with its parsed request and the response being built; both live as long as the call.
template <typename Request, typename Response>
class NavigationService::TypedCall final : public NavigationService::Call {
 public:
  using Call::Call;
  ~TypedCall() override { FinishIfDropped(); }

  Request request;
  Response response_message;

 protected:
  const google::protobuf::Message& response() const override { return response_message; }
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

// Parses the request bytes into `request`; INVALID_ARGUMENT naming the type when they are not
// one (garbage, a truncated varint, a string that is not UTF-8).
grpc::Status ParseRequest(const grpc::ByteBuffer& bytes, google::protobuf::Message* request) {
  grpc::ByteBuffer consumed(bytes);  // the parser drains the buffer it reads
  const size_t size = consumed.Length();
  if (grpc::SerializationTraits<google::protobuf::Message>::Deserialize(&consumed, request).ok()) {
    return grpc::Status::OK;
  }
  return grpc::Status(grpc::StatusCode::INVALID_ARGUMENT,
                      absl::StrCat("the request (", size, " bytes) is not a valid ",
                                   request->GetTypeName(), " message"));
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

class NavigationService::CountedReactor final : public grpc::ServerUnaryReactor {
 public:
  explicit CountedReactor(NavigationService* service) : service_(service) {}
  // gRPC calls this once everything about the call is done, the status sent included.
  void OnDone() override {
    service_->Finished();
    delete this;
  }

 private:
  NavigationService* service_;
};

grpc::ServerUnaryReactor* NavigationService::NewReactor() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    ++in_flight_;
  }
  return new CountedReactor(this);
}

template <typename Request, typename Response>
std::unique_ptr<NavigationService::TypedCall<Request, Response>> NavigationService::Begin(
    RpcMethod method, grpc::CallbackServerContext* ctx, grpc::ServerUnaryReactor* reactor,
    const grpc::ByteBuffer* request, grpc::ByteBuffer* response) {
  metrics_->RpcStarted(method);
  bool admitted;
  {
    std::lock_guard<std::mutex> lock(mu_);
    admitted = admitting_;
  }
  auto call = std::make_unique<TypedCall<Request, Response>>(this, method, ctx, reactor, response);
  if (!admitted) {
    call->Finish(Unavailable());
    return nullptr;
  }
  if (!token_.Allows(ctx->client_metadata())) {
    call->Finish(Unauthenticated());
    return nullptr;
  }
  if (grpc::Status parsed = ParseRequest(*request, &call->request); !parsed.ok()) {
    call->Finish(parsed);
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

template <typename Request, typename Response, typename Validate, typename Run>
grpc::ServerUnaryReactor* NavigationService::ServeMapQuery(RpcMethod method,
                                                           grpc::CallbackServerContext* ctx,
                                                           const grpc::ByteBuffer* request,
                                                           grpc::ByteBuffer* response,
                                                           Validate validate, Run run) {
  grpc::ServerUnaryReactor* reactor = NewReactor();
  auto call = Begin<Request, Response>(method, ctx, reactor, request, response);
  if (call == nullptr) return reactor;
  if (absl::Status s = validate(call->request); !s.ok()) {
    call->Finish(ToGrpcStatus(s));
    return reactor;
  }
  auto map = FindMap(call->request.map_id(), "map_id");
  if (!map.ok()) {
    call->Finish(ToGrpcStatus(map.status()));
    return reactor;
  }
  const Request* in = &call->request;
  Response* out = &call->response_message;
  Enqueue(std::move(call), [run = std::move(run), map = *std::move(map), in, out](
                               WorkerState& w, grpc::CallbackServerContext* c) {
    return run(w, *map, c, *in, out);
  });
  return reactor;
}

grpc::ServerUnaryReactor* NavigationService::FindPath(grpc::CallbackServerContext* ctx,
                                                      const grpc::ByteBuffer* request,
                                                      grpc::ByteBuffer* response) {
  return ServeMapQuery<v1::FindPathRequest, v1::FindPathResponse>(
      RpcMethod::kFindPath, ctx, request, response,
      [](const auto& r) { return ValidateFindPath(r); },
      [this](WorkerState& w, const ServedMap& map, grpc::CallbackServerContext* c,
             const v1::FindPathRequest& r,
             v1::FindPathResponse* out) { return RunFindPath(w, map, r, c, out); });
}

grpc::ServerUnaryReactor* NavigationService::FindPathBatch(grpc::CallbackServerContext* ctx,
                                                           const grpc::ByteBuffer* raw_request,
                                                           grpc::ByteBuffer* raw_response) {
  grpc::ServerUnaryReactor* reactor = NewReactor();
  auto call = Begin<v1::FindPathBatchRequest, v1::FindPathBatchResponse>(
      RpcMethod::kFindPathBatch, ctx, reactor, raw_request, raw_response);
  if (call == nullptr) return reactor;
  const v1::FindPathBatchRequest* request = &call->request;
  v1::FindPathBatchResponse* response = &call->response_message;
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
                                                          const grpc::ByteBuffer* request,
                                                          grpc::ByteBuffer* response) {
  return ServeMapQuery<v1::ValidateMoveRequest, v1::ValidateMoveResponse>(
      RpcMethod::kValidateMove, ctx, request, response,
      [](const auto& r) { return ValidateValidateMove(r); },
      [this](WorkerState& w, const ServedMap& map, grpc::CallbackServerContext*,
             const v1::ValidateMoveRequest& r, v1::ValidateMoveResponse* out) {
        const MapQuery q = Prepare(w, map, r.filter());
        MoveClaim claim;
        claim.from = FromProto(r.from());
        claim.to = FromProto(r.to());
        claim.max_distance = r.max_distance();
        claim.tolerance = r.tolerance();
        claim.extents = ExtentsOr(r.has_extents(), r.extents(), kDefaultMoveExtents);
        absl::StatusOr<MoveVerdict> verdict = JudgeMove(q.query, q.filter, claim, &w.move);
        if (!verdict.ok()) return ToGrpcStatus(verdict.status());
        out->set_verdict(verdict->reason == MoveReason::kNone ? v1::ValidateMoveResponse::VALID
                                                              : v1::ValidateMoveResponse::INVALID);
        out->set_reason(static_cast<v1::ValidateMoveResponse::Reason>(verdict->reason));
        ToProto(verdict->reached, out->mutable_reached());
        out->set_distance(verdict->distance);
        metrics_->RecordMoveResult(verdict->reason);
        return grpc::Status::OK;
      });
}

grpc::ServerUnaryReactor* NavigationService::RandomPoint(grpc::CallbackServerContext* ctx,
                                                         const grpc::ByteBuffer* request,
                                                         grpc::ByteBuffer* response) {
  return ServeMapQuery<v1::RandomPointRequest, v1::RandomPointResponse>(
      RpcMethod::kRandomPoint, ctx, request, response,
      [](const auto& r) { return ValidateRandomPoint(r); },
      [](WorkerState& w, const ServedMap& map, grpc::CallbackServerContext*,
         const v1::RandomPointRequest& r, v1::RandomPointResponse* out) {
        const MapQuery q = Prepare(w, map, r.filter());
        // A seeded call must give the same point on every worker and run: its own generator,
        // fully specified by the standard.
        std::mt19937_64 seeded(r.seed());
        absl::BitGenRef rng = r.has_seed() ? absl::BitGenRef(seeded) : absl::BitGenRef(w.rng);
        absl::StatusOr<std::optional<SurfacePoint>> point = std::optional<SurfacePoint>();
        if (r.has_center()) {
          const absl::StatusOr<std::optional<SurfacePoint>> center =
              q.query.NearestPoint(FromProto(r.center()), kDefaultPathExtents, q.filter);
          if (!center.ok()) return ToGrpcStatus(center.status());
          if (*center) point = q.query.RandomPointInCircle(**center, r.radius(), q.filter, rng);
        } else {
          point = q.query.RandomPoint(q.filter, rng);
        }
        if (!point.ok()) return ToGrpcStatus(point.status());
        out->set_found(point->has_value());
        if (*point) {
          ToProto((*point)->pos, out->mutable_position());
          out->set_poly((*point)->poly.bits());
        }
        return grpc::Status::OK;
      });
}

grpc::ServerUnaryReactor* NavigationService::Raycast(grpc::CallbackServerContext* ctx,
                                                     const grpc::ByteBuffer* request,
                                                     grpc::ByteBuffer* response) {
  return ServeMapQuery<v1::RaycastRequest, v1::RaycastResponse>(
      RpcMethod::kRaycast, ctx, request, response, [](const auto& r) { return ValidateRaycast(r); },
      [](WorkerState& w, const ServedMap& map, grpc::CallbackServerContext*,
         const v1::RaycastRequest& r, v1::RaycastResponse* out) {
        const MapQuery q = Prepare(w, map, r.filter());
        const Vec3 extents = ExtentsOr(r.has_extents(), r.extents(), kDefaultMoveExtents);
        const absl::Status s =
            q.query.Raycast(FromProto(r.start()), FromProto(r.end()), q.filter, extents, &w.ray);
        if (!s.ok()) return ToGrpcStatus(s);
        ToProto(w.ray, out);
        return grpc::Status::OK;
      });
}

grpc::ServerUnaryReactor* NavigationService::NearestPoint(grpc::CallbackServerContext* ctx,
                                                          const grpc::ByteBuffer* request,
                                                          grpc::ByteBuffer* response) {
  return ServeMapQuery<v1::NearestPointRequest, v1::NearestPointResponse>(
      RpcMethod::kNearestPoint, ctx, request, response,
      [](const auto& r) { return ValidateNearestPoint(r); },
      [](WorkerState& w, const ServedMap& map, grpc::CallbackServerContext*,
         const v1::NearestPointRequest& r, v1::NearestPointResponse* out) {
        const MapQuery q = Prepare(w, map, r.filter());
        const Vec3 pos = FromProto(r.position());
        const absl::StatusOr<std::optional<SurfacePoint>> found = q.query.NearestPoint(
            pos, ExtentsOr(r.has_extents(), r.extents(), kDefaultPathExtents), q.filter);
        if (!found.ok()) return ToGrpcStatus(found.status());
        out->set_found(found->has_value());
        if (*found) {
          ToProto((*found)->pos, out->mutable_position());
          out->set_poly((*found)->poly.bits());
          out->set_distance(Distance(pos, (*found)->pos));
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
                                                        const grpc::ByteBuffer* request,
                                                        grpc::ByteBuffer* response) {
  grpc::ServerUnaryReactor* reactor = NewReactor();
  auto call = Begin<v1::GetMapInfoRequest, v1::MapInfo>(RpcMethod::kGetMapInfo, ctx, reactor,
                                                        request, response);
  if (call == nullptr) return reactor;
  if (absl::Status s = ValidateGetMapInfo(call->request); !s.ok()) {
    call->Finish(ToGrpcStatus(s));
    return reactor;
  }
  auto map = FindMap(call->request.map_id(), "map_id");
  if (!map.ok()) {
    call->Finish(ToGrpcStatus(map.status()));
    return reactor;
  }
  // Metadata only: cheap enough for the handler thread.
  FillMapInfo(**map, &call->response_message);
  call->Finish(grpc::Status::OK);
  return reactor;
}

grpc::ServerUnaryReactor* NavigationService::ListMaps(grpc::CallbackServerContext* ctx,
                                                      const grpc::ByteBuffer* request,
                                                      grpc::ByteBuffer* response) {
  grpc::ServerUnaryReactor* reactor = NewReactor();
  auto call = Begin<v1::ListMapsRequest, v1::ListMapsResponse>(RpcMethod::kListMaps, ctx, reactor,
                                                               request, response);
  if (call == nullptr) return reactor;
  for (const std::shared_ptr<const ServedMap>& map : maps_->List()) {
    FillMapInfo(*map, call->response_message.add_maps());
  }
  call->Finish(grpc::Status::OK);
  return reactor;
}

}  // namespace waymesh::server
