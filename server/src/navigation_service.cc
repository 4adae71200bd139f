#include "waymesh/server/navigation_service.h"

#include <chrono>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "navigation_call.h"
#include "spdlog/spdlog.h"
#include "waymesh/server/call_interrupt.h"
#include "waymesh/server/error_model.h"
#include "waymesh/server/proto_conversion.h"

namespace waymesh::server {

// gRPC's retry policy reads this trailer: milliseconds to wait before the next attempt, or a
// negative value for "do not retry" (gRFC A6).
constexpr char kRetryPushbackTrailer[] = "grpc-retry-pushback-ms";

absl::Status Draining() {
  return WithRetryDelay(
      WithReason(absl::UnavailableError("the server is shutting down"), reason::kDraining),
      kDrainingRetryDelay);
}

absl::Status PoolRefusal(Admission why, const WorkerPool& pool) {
  switch (why) {
    case Admission::kStopping:
      return Draining();
    case Admission::kShedding:
      return WithRetryDelay(
          WithReason(absl::ResourceExhaustedError(
                         "the server is overloaded (calls arrive faster than its workers serve "
                         "them) and is shedding load; retry later, with backoff"),
                     reason::kOverloaded),
          kOverloadRetryDelay);
    case Admission::kQueueFull:
    case Admission::kQueued:
      break;
  }
  return WithRetryDelay(
      WithReason(absl::ResourceExhaustedError(absl::StrCat(
                     "all ", pool.workers(), " workers are busy and ", pool.queue_capacity(),
                     " calls are queued; retry later")),
                 reason::kOverloaded),
      kOverloadRetryDelay);
}

absl::Status ParseRequest(const grpc::ByteBuffer& bytes, google::protobuf::Message* request) {
  grpc::ByteBuffer consumed(bytes);  // the parser drains the buffer it reads
  const size_t size = consumed.Length();
  if (grpc::SerializationTraits<google::protobuf::Message>::Deserialize(&consumed, request).ok()) {
    return absl::OkStatus();
  }
  return WithReason(absl::InvalidArgumentError(absl::StrCat("the request (", size,
                                                            " bytes) is not a valid ",
                                                            request->GetTypeName(), " message")),
                    reason::kMalformedRequest);
}

absl::Status Unauthenticated() {
  return WithReason(
      absl::UnauthenticatedError("missing or wrong 'authorization: Bearer <token>' metadata"),
      reason::kUnauthenticated);
}

bool EndsTheCall(const absl::Status& status) {
  return status.code() == absl::StatusCode::kDeadlineExceeded ||
         status.code() == absl::StatusCode::kCancelled;
}

NavigationService::Call::Call(NavigationService* service, RpcMethod method,
                              grpc::CallbackServerContext* ctx, grpc::ServerUnaryReactor* reactor,
                              grpc::ByteBuffer* raw_response)
    : service_(service),
      method_(method),
      ctx_(ctx),
      reactor_(reactor),
      raw_response_(raw_response),
      start_(std::chrono::steady_clock::now()) {}

void NavigationService::Call::Finish(absl::Status status) {
  finished_ = true;
  if (status.ok()) status = SerializeResponse();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  service_->metrics_->ObserveRpc(method_, int(status.code()), seconds);
  if (!status.ok() && spdlog::should_log(spdlog::level::debug)) {
    spdlog::debug("{} from {} failed: {} ({}): {}", RpcMethodName(method_), ctx_->peer(),
                  absl::StatusCodeToString(status.code()), ReasonOf(status),
                  std::string(status.message()));
  }
  if (status.code() == absl::StatusCode::kResourceExhausted) {
    // Overload asks for a pause; a response over the size limit will not shrink by retrying.
    const std::optional<std::chrono::milliseconds> delay = RetryDelayOf(status);
    ctx_->AddTrailingMetadata(kRetryPushbackTrailer,
                              delay ? std::to_string(delay->count()) : std::string("-1"));
  }
  reactor_->Finish(ToGrpcStatus(status));
  // After Finish gRPC may free ctx_ and the buffers: touch none of them. The reactor tells
  // the service when the call is over.
}

void NavigationService::Call::FinishIfDropped() {
  if (!finished_) Finish(absl::InternalError("call dropped"));
}

absl::Status NavigationService::Call::SerializeResponse() {
  const google::protobuf::Message& message = response();
  const size_t bytes = message.ByteSizeLong();
  if (bytes > service_->options_.max_response_bytes) {
    return WithReason(
        absl::ResourceExhaustedError(absl::StrCat(
            "the response is ", bytes, " bytes, over the server's limit of ",
            service_->options_.max_response_bytes,
            " (--max-message-bytes): ask for fewer paths or waypoints")),
        reason::kResponseTooLarge);
  }
  bool own_buffer = false;
  const grpc::Status s = grpc::SerializationTraits<google::protobuf::Message>::Serialize(
      message, raw_response_, &own_buffer);
  if (s.ok()) return absl::OkStatus();
  return absl::InternalError(absl::StrCat("serializing the response: ", s.error_message()));
}

NavigationService::NavigationService(const MapRegistry* maps, ObstacleLayers* layers,
                                     WorkerPool* pool, ServerMetrics* metrics,
                                     NavigationServiceOptions options)
    : maps_(maps),
      layers_(layers),
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

void NavigationService::Finished() {
  std::lock_guard<std::mutex> lock(mu_);
  if (--in_flight_ == 0) idle_.notify_all();
}

absl::Status NavigationService::CheckAdmission(const grpc::CallbackServerContext* ctx) const {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!admitting_) return Draining();
  }
  return token_.Allows(ctx->client_metadata()) ? absl::OkStatus() : Unauthenticated();
}

absl::StatusOr<std::shared_ptr<const ServedMap>> NavigationService::ResolveMap(
    const std::string& map_id, const std::string& agent_type,
    const v1::ObstacleLayerRef& obstacles) const {
  absl::StatusOr<std::shared_ptr<const ServedMap>> map = FindMap(map_id, agent_type);
  if (!map.ok() || obstacles.layer().empty()) return map;
  return layers_->Resolve(*std::move(map), obstacles.layer(), obstacles.version());
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

absl::Status NavigationService::CheckAlive(grpc::CallbackServerContext* ctx) {
  return CallLiveness(ctx->IsCancelled(), ctx->deadline(), std::chrono::system_clock::now());
}

absl::StatusOr<std::shared_ptr<const ServedMap>> NavigationService::FindMap(
    const std::string& map_id, const std::string& agent_type) const {
  absl::StatusOr<std::shared_ptr<const ServedMap>> map = maps_->Find(MapKey(map_id, agent_type));
  if (map.ok() || map.status().code() != absl::StatusCode::kNotFound) return map;
  std::vector<std::string> types;
  for (const std::shared_ptr<const ServedMap>& m : maps_->List()) {
    if (m->map_id() == map_id) types.push_back(m->agent_type().empty() ? "''" : m->agent_type());
  }
  if (types.empty()) {
    return WithReason(absl::NotFoundError(absl::StrCat("map_id: no map '", map_id, "' is served")),
                      reason::kMapNotFound, "map_id", map_id);
  }
  return WithReason(
      absl::NotFoundError(absl::StrCat("agent_type: map '", map_id, "' is not served for agent type '",
                                       agent_type, "' (served: ", absl::StrJoin(types, ", "), ")")),
      reason::kAgentTypeNotFound, "agent_type", agent_type);
}

NavigationService::MapQuery NavigationService::Prepare(WorkerState& w, const ServedMap& map,
                                                       const v1::QueryFilter& filter) {
  NavQuery& query = w.queries.For(map.query_key(), map.query_version(), map.map());
  return {query, ToQueryFilter(filter, query.map().info())};
}

}  // namespace waymesh::server
