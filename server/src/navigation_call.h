#pragma once
// The call machinery every NavigationService handler file shares: one admitted call
// (NavigationService::Call), how it begins, is queued, and how a query on one map or a batch of
// them is served. Private to the server library.

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "grpcpp/grpcpp.h"
#include "waymesh/server/call_interrupt.h"
#include "waymesh/server/error_model.h"
#include "waymesh/server/navigation_service.h"
#include "waymesh/server/request_validation.h"

namespace waymesh::server {

// Why the pool refused a call, as the status the client gets.
absl::Status PoolRefusal(Admission why, const WorkerPool& pool);
// The status of a call arriving while the server drains.
absl::Status Draining();
// Parses the request bytes into `request`; INVALID_ARGUMENT naming the type when they are not
// one (garbage, a truncated varint, a string that is not UTF-8).
absl::Status ParseRequest(const grpc::ByteBuffer& bytes, google::protobuf::Message* request);
absl::Status Unauthenticated();
// Whether `status` ends a whole call (its deadline or cancellation), not one batch item.
bool EndsTheCall(const absl::Status& status);
// Whether two queries name the same map, agent type and obstacle layer version.
template <typename Request>
bool SameQueryMap(const Request& a, const Request& b) {
  return a.map_id() == b.map_id() && a.agent_type() == b.agent_type() &&
         a.obstacles().layer() == b.obstacles().layer() &&
         a.obstacles().version() == b.obstacles().version();
}

// One admitted call: finishes its reactor exactly once, serializing the response of an OK
// answer (RESOURCE_EXHAUSTED instead when it is over the size limit), with metrics, error
// details and the retry pushback trailer, and tells the service.
class NavigationService::Call {
 public:
  Call(NavigationService* service, RpcMethod method, grpc::CallbackServerContext* ctx,
       grpc::ServerUnaryReactor* reactor, grpc::ByteBuffer* raw_response);
  virtual ~Call() = default;
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;

  grpc::CallbackServerContext* ctx() const { return ctx_; }
  RpcMethod method() const { return method_; }

  void Finish(absl::Status status);

 protected:
  virtual const google::protobuf::Message& response() const = 0;
  // A call dropped without an answer (a bug) still ends, so shutdown never waits for it.
  // Called by the derived destructor, while the response still exists.
  void FinishIfDropped();

 private:
  absl::Status SerializeResponse();

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
    call->Finish(Draining());
    return nullptr;
  }
  if (!token_.Allows(ctx->client_metadata())) {
    call->Finish(Unauthenticated());
    return nullptr;
  }
  if (absl::Status parsed = ParseRequest(*request, &call->request); !parsed.ok()) {
    call->Finish(std::move(parsed));
    return nullptr;
  }
  return call;
}

template <typename Work>
void NavigationService::Enqueue(WorkerPool& pool, std::unique_ptr<Call> call, Work work) {
  if (absl::Status alive = CheckAlive(call->ctx()); !alive.ok()) {
    call->Finish(std::move(alive));
    return;
  }
  // The task owns the call only if it is queued; a refused task is destroyed unrun.
  Call* raw = call.release();
  const Admission admission =
      pool.TrySubmit([this, raw, work = std::move(work)](WorkerState& w) mutable {
        std::unique_ptr<Call> c(raw);
        // It may have waited in the queue past its deadline, or its client may have gone.
        if (absl::Status alive = CheckAlive(c->ctx()); !alive.ok()) {
          c->Finish(std::move(alive));
          return;
        }
        if (options_.before_query) options_.before_query(c->method());
        queries_run_.fetch_add(1, std::memory_order_relaxed);
        c->Finish(work(w, c->ctx()));
      });
  if (admission != Admission::kQueued) {
    std::unique_ptr<Call> c(raw);
    if (admission != Admission::kStopping) metrics_->RecordRejected();
    c->Finish(PoolRefusal(admission, pool));
  }
}

template <typename Request>
absl::StatusOr<std::shared_ptr<const ServedMap>> NavigationService::CheckedMap(
    const Request& request, ValidateFunction<Request> validate) const {
  if (absl::Status s = validate(request); !s.ok()) return s;
  return QueryMap(request);
}

template <typename Request>
absl::StatusOr<std::shared_ptr<const ServedMap>> NavigationService::QueryMap(
    const Request& request) const {
  // Map metadata requests name no layer.
  if constexpr (requires { request.obstacles(); }) {
    return ResolveMap(request.map_id(), request.agent_type(), request.obstacles());
  } else {
    return FindMap(request.map_id(), request.agent_type());
  }
}

template <typename Request, typename Response, typename Check, typename Work>
grpc::ServerUnaryReactor* NavigationService::Serve(WorkerPool& pool, RpcMethod method,
                                                   grpc::CallbackServerContext* ctx,
                                                   const grpc::ByteBuffer* request,
                                                   grpc::ByteBuffer* response, Check check,
                                                   Work work) {
  grpc::ServerUnaryReactor* reactor = NewReactor();
  auto call = Begin<Request, Response>(method, ctx, reactor, request, response);
  if (call == nullptr) return reactor;
  if (absl::Status s = check(call->request); !s.ok()) {
    call->Finish(std::move(s));
    return reactor;
  }
  const Request* in = &call->request;
  Response* out = &call->response_message;
  Enqueue(pool, std::move(call),
          [in, out, work = std::move(work)](WorkerState& w, grpc::CallbackServerContext* c) {
            return work(w, c, *in, out);
          });
  return reactor;
}

template <typename Request, typename Response, typename Work>
grpc::ServerUnaryReactor* NavigationService::ServeUnchecked(WorkerPool& pool, RpcMethod method,
                                                            grpc::CallbackServerContext* ctx,
                                                            const grpc::ByteBuffer* request,
                                                            grpc::ByteBuffer* response, Work work) {
  return Serve<Request, Response>(
      pool, method, ctx, request, response, [](const Request&) { return absl::OkStatus(); },
      [work = std::move(work)](WorkerState&, grpc::CallbackServerContext*, const Request& in,
                               Response* out) { return work(in, out); });
}

template <typename Request, typename Response, typename Work>
grpc::ServerUnaryReactor* NavigationService::ServeOnWorker(RpcMethod method,
                                                           grpc::CallbackServerContext* ctx,
                                                           const grpc::ByteBuffer* request,
                                                           grpc::ByteBuffer* response, Work work) {
  return ServeUnchecked<Request, Response>(*pool_, method, ctx, request, response, std::move(work));
}

template <typename Request, typename Response, typename Work>
grpc::ServerUnaryReactor* NavigationService::ServeChange(RpcMethod method,
                                                         grpc::CallbackServerContext* ctx,
                                                         const grpc::ByteBuffer* request,
                                                         grpc::ByteBuffer* response, Work work) {
  WorkerPool& pool = options_.change_pool != nullptr ? *options_.change_pool : *pool_;
  return ServeUnchecked<Request, Response>(pool, method, ctx, request, response, std::move(work));
}

template <typename Request, typename Response>
grpc::ServerUnaryReactor* NavigationService::ServeMapQuery(RpcMethod method,
                                                           grpc::CallbackServerContext* ctx,
                                                           const grpc::ByteBuffer* request,
                                                           grpc::ByteBuffer* response,
                                                           ValidateFunction<Request> validate,
                                                           RunMethod<Request, Response> run) {
  return Serve<Request, Response>(*pool_, method, ctx, request, response, validate,
                                  [this, run](WorkerState& w, grpc::CallbackServerContext* c,
                                              const Request& in, Response* out) -> absl::Status {
                                    absl::StatusOr<std::shared_ptr<const ServedMap>> map =
                                        QueryMap(in);
                                    if (!map.ok()) return map.status();
                                    return (this->*run)(w, **map, c, in, out);
                                  });
}

template <typename BatchRequest, typename Request>
std::vector<NavigationService::BatchItem> NavigationService::ResolveBatch(
    const BatchRequest& in, ValidateFunction<Request> validate) const {
  std::vector<BatchItem> items(in.requests_size());
  for (int i = 0; i < in.requests_size(); ++i) {
    const Request& r = in.requests(i);
    items[i].error = validate(r);
    if (!items[i].error.ok()) continue;
    if (i > 0 && items[i - 1].map && SameQueryMap(r, in.requests(i - 1))) {
      items[i].map = items[i - 1].map;
      continue;
    }
    absl::StatusOr<std::shared_ptr<const ServedMap>> map = QueryMap(r);
    if (map.ok()) {
      items[i].map = *std::move(map);
    } else {
      items[i].error = map.status();
    }
  }
  return items;
}

template <typename BatchRequest, typename BatchResponse, typename Request, typename Response>
grpc::ServerUnaryReactor* NavigationService::ServeBatch(RpcMethod method,
                                                        grpc::CallbackServerContext* ctx,
                                                        const grpc::ByteBuffer* request,
                                                        grpc::ByteBuffer* response,
                                                        ValidateFunction<Request> validate,
                                                        RunMethod<Request, Response> run) {
  return Serve<BatchRequest, BatchResponse>(
      *pool_, method, ctx, request, response,
      [](const BatchRequest& in) { return ValidateBatchSize(in.requests_size()); },
      [this, validate, run](WorkerState& w, grpc::CallbackServerContext* c, const BatchRequest& in,
                            BatchResponse* out) -> absl::Status {
        const std::vector<BatchItem> items = ResolveBatch(in, validate);
        CallInterrupt between(c);
        out->mutable_results()->Reserve(in.requests_size());
        for (int i = 0; i < in.requests_size(); ++i) {
          if (absl::Status s = between.Check(); !s.ok()) return s;
          auto* result = out->add_results();
          absl::Status s = items[i].error;
          if (s.ok()) {
            s = (this->*run)(w, *items[i].map, c, in.requests(i), result->mutable_response());
          }
          if (s.ok()) continue;
          if (EndsTheCall(s)) return s;
          *result->mutable_error() =
              ToRpcStatus(WithFieldPrefix(s, absl::StrCat("requests[", i, "].")));
        }
        return absl::OkStatus();
      });
}

}  // namespace waymesh::server
