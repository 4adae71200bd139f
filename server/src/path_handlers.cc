// FindPath and FindPathBatch.

#include "navigation_call.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/server/proto_conversion.h"

namespace waymesh::server {
namespace {

// A path end of the request: its position and, when the caller passed one, its polygon.
PathEnd ToPathEnd(const v1::Vec3& pos, bool has_poly, uint64_t poly) {
  return {FromProto(pos), has_poly ? std::optional(PolyRef::FromBits(poly)) : std::nullopt};
}

// Core refuses a polygon reference as INVALID_ARGUMENT (not in the map) or FAILED_PRECONDITION
// (stale); every other field was checked before, so those codes name the reference.
absl::Status PolygonRefError(absl::Status status) {
  if (status.code() == absl::StatusCode::kFailedPrecondition) {
    return WithReason(std::move(status), reason::kStalePolygonRef);
  }
  if (status.code() == absl::StatusCode::kInvalidArgument) {
    return WithReason(std::move(status), reason::kUnknownPolygonRef);
  }
  return status;
}

}  // namespace

grpc::ServerUnaryReactor* NavigationService::FindPath(grpc::CallbackServerContext* ctx,
                                                      const grpc::ByteBuffer* request,
                                                      grpc::ByteBuffer* response) {
  return ServeMapQuery(RpcMethod::kFindPath, ctx, request, response, &ValidateFindPath,
                       &NavigationService::RunFindPath);
}

grpc::ServerUnaryReactor* NavigationService::FindPathBatch(grpc::CallbackServerContext* ctx,
                                                           const grpc::ByteBuffer* request,
                                                           grpc::ByteBuffer* response) {
  return ServeBatch<v1::FindPathBatchRequest, v1::FindPathBatchResponse>(
      RpcMethod::kFindPathBatch, ctx, request, response, &ValidateFindPath,
      &NavigationService::RunFindPath);
}

absl::Status NavigationService::RunFindPath(WorkerState& w, const ServedMap& map,
                                            grpc::CallbackServerContext* ctx,
                                            const v1::FindPathRequest& r,
                                            v1::FindPathResponse* out) {
  const MapQuery q = Prepare(w, map, r.filter());
  PathOptions options = ToPathOptions(r.options(), options_.max_search_nodes);
  if (options.mode == PathMode::kExact) {
    // Refused here, before core, whose INVALID_ARGUMENT would otherwise name a polygon ref.
    if (absl::Status s = CheckExactPathSupport(q.query.map(), q.filter); !s.ok()) {
      return WithReason(std::move(s), reason::kExactModeUnsupported);
    }
  }
  // An in-process call (RunLocal) has no context: the node limit bounds its search.
  std::optional<CallInterrupt> interrupt;
  if (ctx != nullptr) options.interrupt = &interrupt.emplace(ctx);
  const absl::Status s = q.query.FindPath(ToPathEnd(r.start(), r.has_start_poly(), r.start_poly()),
                                          ToPathEnd(r.end(), r.has_end_poly(), r.end_poly()),
                                          q.filter, options, &w.path);
  if (!s.ok()) return PolygonRefError(s);
  ToProto(w.path, out);
  out->set_map_version(map.version());
  metrics_->RecordPathResult(w.path.status);
  metrics_->ObserveNodesExpanded(w.path.nodes_expanded);
  if (options_.path_heat != nullptr) {
    options_.path_heat->Record(map.id(), FromProto(r.start()), FromProto(r.end()), w.path.status);
  }
  if (w.path.status != QueryStatus::kStartOffMesh && w.path.status != QueryStatus::kEndOffMesh) {
    metrics_->RecordPathSearch(w.path.hierarchical);
  }
  return absl::OkStatus();
}

}  // namespace waymesh::server
