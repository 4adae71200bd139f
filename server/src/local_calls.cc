// NavigationService::RunLocal: the queries of the map viewer, run as their RPCs run them.

#include "navigation_call.h"

namespace waymesh::server {

template <typename Request, typename Response>
void NavigationService::Local(const Request& request, Response* response,
                              ValidateFunction<Request> validate, RunMethod<Request, Response> run,
                              LocalDone done) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (!admitting_) return std::move(done)(Draining());
  }
  if (absl::Status s = validate(request); !s.ok()) return std::move(done)(std::move(s));
  // The task owns `done` only if it is queued; a refused task is destroyed unrun.
  auto shared_done = std::make_shared<LocalDone>(std::move(done));
  const Admission admission =
      pool_->TrySubmit([this, &request, response, run, shared_done](WorkerState& w) {
        absl::StatusOr<std::shared_ptr<const ServedMap>> map = QueryMap(request);
        absl::Status s =
            map.ok() ? (this->*run)(w, **map, nullptr, request, response) : map.status();
        std::move (*shared_done)(std::move(s));
      });
  if (admission != Admission::kQueued) std::move (*shared_done)(PoolRefusal(admission, *pool_));
}

void NavigationService::RunLocal(const v1::FindPathRequest& request, v1::FindPathResponse* response,
                                 LocalDone done) {
  Local(request, response, &ValidateFindPath, &NavigationService::RunFindPath, std::move(done));
}

void NavigationService::RunLocal(const v1::RaycastRequest& request, v1::RaycastResponse* response,
                                 LocalDone done) {
  Local(request, response, &ValidateRaycast, &NavigationService::RunRaycast, std::move(done));
}

void NavigationService::RunLocal(const v1::ValidateMoveRequest& request,
                                 v1::ValidateMoveResponse* response, LocalDone done) {
  Local(request, response, &ValidateValidateMove, &NavigationService::RunValidateMove,
        std::move(done));
}

void NavigationService::RunLocal(const v1::NearestPointRequest& request,
                                 v1::NearestPointResponse* response, LocalDone done) {
  Local(request, response, &ValidateNearestPoint, &NavigationService::RunNearestPoint,
        std::move(done));
}

}  // namespace waymesh::server
