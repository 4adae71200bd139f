// RandomPoint, Raycast, RaycastBatch and NearestPoint: queries about points of the surface.

#include <random>

#include "navigation_call.h"
#include "waymesh/server/proto_conversion.h"

namespace waymesh::server {

grpc::ServerUnaryReactor* NavigationService::RandomPoint(grpc::CallbackServerContext* ctx,
                                                         const grpc::ByteBuffer* request,
                                                         grpc::ByteBuffer* response) {
  return ServeMapQuery(RpcMethod::kRandomPoint, ctx, request, response, &ValidateRandomPoint,
                       &NavigationService::RunRandomPoint);
}

absl::Status NavigationService::RunRandomPoint(WorkerState& w, const ServedMap& map,
                                               grpc::CallbackServerContext*,
                                               const v1::RandomPointRequest& r,
                                               v1::RandomPointResponse* out) {
  const MapQuery q = Prepare(w, map, r.filter());
  // A seeded call must give the same point on every worker and run: its own generator, fully
  // specified by the standard.
  std::mt19937_64 seeded(r.seed());
  absl::BitGenRef rng = r.has_seed() ? absl::BitGenRef(seeded) : absl::BitGenRef(w.rng);
  absl::StatusOr<std::optional<SurfacePoint>> point = std::optional<SurfacePoint>();
  if (r.has_center()) {
    const absl::StatusOr<std::optional<SurfacePoint>> center =
        q.query.NearestPoint(FromProto(r.center()), kDefaultPathExtents, q.filter);
    if (!center.ok()) return center.status();
    if (*center) point = q.query.RandomPointInCircle(**center, r.radius(), q.filter, rng);
  } else {
    point = q.query.RandomPoint(q.filter, rng);
  }
  if (!point.ok()) return point.status();
  out->set_found(point->has_value());
  if (*point) {
    ToProto((*point)->pos, out->mutable_position());
    out->set_poly((*point)->poly.bits());
  }
  out->set_map_version(map.version());
  return absl::OkStatus();
}

grpc::ServerUnaryReactor* NavigationService::Raycast(grpc::CallbackServerContext* ctx,
                                                     const grpc::ByteBuffer* request,
                                                     grpc::ByteBuffer* response) {
  return ServeMapQuery(RpcMethod::kRaycast, ctx, request, response, &ValidateRaycast,
                       &NavigationService::RunRaycast);
}

grpc::ServerUnaryReactor* NavigationService::RaycastBatch(grpc::CallbackServerContext* ctx,
                                                          const grpc::ByteBuffer* request,
                                                          grpc::ByteBuffer* response) {
  return ServeBatch<v1::RaycastBatchRequest, v1::RaycastBatchResponse>(
      RpcMethod::kRaycastBatch, ctx, request, response, &ValidateRaycast,
      &NavigationService::RunRaycast);
}

absl::Status NavigationService::RunRaycast(WorkerState& w, const ServedMap& map,
                                           grpc::CallbackServerContext*,
                                           const v1::RaycastRequest& r, v1::RaycastResponse* out) {
  const MapQuery q = Prepare(w, map, r.filter());
  const Vec3 extents = ExtentsOr(r.has_extents(), r.extents(), kDefaultMoveExtents);
  if (absl::Status s =
          q.query.Raycast(FromProto(r.start()), FromProto(r.end()), q.filter, extents, &w.ray);
      !s.ok()) {
    return s;
  }
  ToProto(w.ray, out);
  out->set_map_version(map.version());
  return absl::OkStatus();
}

grpc::ServerUnaryReactor* NavigationService::NearestPoint(grpc::CallbackServerContext* ctx,
                                                          const grpc::ByteBuffer* request,
                                                          grpc::ByteBuffer* response) {
  return ServeMapQuery(RpcMethod::kNearestPoint, ctx, request, response, &ValidateNearestPoint,
                       &NavigationService::RunNearestPoint);
}

absl::Status NavigationService::RunNearestPoint(WorkerState& w, const ServedMap& map,
                                                grpc::CallbackServerContext*,
                                                const v1::NearestPointRequest& r,
                                                v1::NearestPointResponse* out) {
  const MapQuery q = Prepare(w, map, r.filter());
  const Vec3 pos = FromProto(r.position());
  const absl::StatusOr<std::optional<SurfacePoint>> found = q.query.NearestPoint(
      pos, ExtentsOr(r.has_extents(), r.extents(), kDefaultPathExtents), q.filter);
  if (!found.ok()) return found.status();
  out->set_found(found->has_value());
  if (*found) {
    ToProto((*found)->pos, out->mutable_position());
    out->set_poly((*found)->poly.bits());
    out->set_distance(Distance(pos, (*found)->pos));
  }
  out->set_map_version(map.version());
  return absl::OkStatus();
}

}  // namespace waymesh::server
