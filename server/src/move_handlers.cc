// ValidateMove and ValidateMoveBatch: the anti-cheat check of a claimed move.

#include "navigation_call.h"
#include "waymesh/server/move_judge.h"
#include "waymesh/server/proto_conversion.h"

namespace waymesh::server {

grpc::ServerUnaryReactor* NavigationService::ValidateMove(grpc::CallbackServerContext* ctx,
                                                          const grpc::ByteBuffer* request,
                                                          grpc::ByteBuffer* response) {
  return ServeMapQuery(RpcMethod::kValidateMove, ctx, request, response, &ValidateValidateMove,
                       &NavigationService::RunValidateMove);
}

grpc::ServerUnaryReactor* NavigationService::ValidateMoveBatch(grpc::CallbackServerContext* ctx,
                                                               const grpc::ByteBuffer* request,
                                                               grpc::ByteBuffer* response) {
  return ServeBatch<v1::ValidateMoveBatchRequest, v1::ValidateMoveBatchResponse>(
      RpcMethod::kValidateMoveBatch, ctx, request, response, &ValidateValidateMove,
      &NavigationService::RunValidateMove);
}

absl::Status NavigationService::RunValidateMove(WorkerState& w, const ServedMap& map,
                                                grpc::CallbackServerContext*,
                                                const v1::ValidateMoveRequest& r,
                                                v1::ValidateMoveResponse* out) {
  const MapQuery q = Prepare(w, map, r.filter());
  MoveClaim claim;
  claim.from = FromProto(r.start());
  claim.to = FromProto(r.end());
  claim.max_distance = r.max_distance();
  claim.tolerance = r.tolerance();
  claim.extents = ExtentsOr(r.has_extents(), r.extents(), kDefaultMoveExtents);
  absl::StatusOr<MoveVerdict> verdict = JudgeMove(q.query, q.filter, claim, &w.move);
  if (!verdict.ok()) return verdict.status();
  out->set_verdict(verdict->reason == MoveReason::kNone ? v1::ValidateMoveResponse::VERDICT_VALID
                                                        : v1::ValidateMoveResponse::VERDICT_INVALID);
  out->set_reason(static_cast<v1::ValidateMoveResponse::Reason>(verdict->reason));
  ToProto(verdict->reached, out->mutable_reached());
  out->set_distance(verdict->distance);
  out->set_map_version(map.version());
  metrics_->RecordMoveResult(verdict->reason);
  return absl::OkStatus();
}

}  // namespace waymesh::server
