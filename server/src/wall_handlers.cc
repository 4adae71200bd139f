// FindDistanceToWall and FindPolygonsInCircle: what surrounds a point of the surface (Detour's
// findDistanceToWall and findPolysAroundCircle, Unity's NavMesh.FindClosestEdge).

#include "navigation_call.h"
#include "waymesh/server/proto_conversion.h"

namespace waymesh::server {

grpc::ServerUnaryReactor* NavigationService::FindDistanceToWall(grpc::CallbackServerContext* ctx,
                                                                const grpc::ByteBuffer* request,
                                                                grpc::ByteBuffer* response) {
  return ServeMapQuery(RpcMethod::kFindDistanceToWall, ctx, request, response,
                       &ValidateFindDistanceToWall, &NavigationService::RunFindDistanceToWall);
}

absl::Status NavigationService::RunFindDistanceToWall(WorkerState& w, const ServedMap& map,
                                                      grpc::CallbackServerContext*,
                                                      const v1::FindDistanceToWallRequest& r,
                                                      v1::FindDistanceToWallResponse* out) {
  const MapQuery q = Prepare(w, map, r.filter());
  WallDistance wall;
  if (absl::Status s = q.query.FindDistanceToWall(
          FromProto(r.position()), r.max_radius(), q.filter,
          ExtentsOr(r.has_extents(), r.extents(), kDefaultMoveExtents), &wall);
      !s.ok()) {
    return s;
  }
  out->set_start_on_mesh(wall.status == QueryStatus::kComplete);
  out->set_map_version(map.version());
  if (!out->start_on_mesh()) return absl::OkStatus();
  ToProto(wall.center.pos, out->mutable_snapped_position());
  out->set_found(wall.found);
  out->set_distance(wall.distance);
  out->set_node_limit_reached(wall.node_limit);
  if (wall.found) {
    ToProto(wall.hit_point, out->mutable_hit_position());
    ToProto(wall.hit_normal, out->mutable_hit_normal());
    out->set_wall_poly(wall.wall_poly.bits());
  }
  return absl::OkStatus();
}

grpc::ServerUnaryReactor* NavigationService::FindPolygonsInCircle(grpc::CallbackServerContext* ctx,
                                                                  const grpc::ByteBuffer* request,
                                                                  grpc::ByteBuffer* response) {
  return ServeMapQuery(RpcMethod::kFindPolygonsInCircle, ctx, request, response,
                       &ValidateFindPolygonsInCircle, &NavigationService::RunFindPolygonsInCircle);
}

absl::Status NavigationService::RunFindPolygonsInCircle(WorkerState& w, const ServedMap& map,
                                                        grpc::CallbackServerContext*,
                                                        const v1::FindPolygonsInCircleRequest& r,
                                                        v1::FindPolygonsInCircleResponse* out) {
  const MapQuery q = Prepare(w, map, r.filter());
  const uint32_t max_polygons = r.max_polygons() == 0 ? kDefaultCirclePolygons : r.max_polygons();
  PolygonsInCircle found;
  if (absl::Status s = q.query.FindPolygonsInCircle(
          FromProto(r.center()), r.radius(), q.filter, max_polygons,
          ExtentsOr(r.has_extents(), r.extents(), kDefaultMoveExtents), &found);
      !s.ok()) {
    return s;
  }
  out->set_center_on_mesh(found.status == QueryStatus::kComplete);
  out->set_truncated(found.truncated);
  out->set_map_version(map.version());
  out->mutable_polygons()->Reserve(static_cast<int>(found.polygons.size()));
  for (const PolygonInCircle& p : found.polygons) {
    v1::PolygonInCircle* item = out->add_polygons();
    item->set_poly(p.poly.bits());
    item->set_parent(p.parent.valid() ? p.parent.bits() : 0);
    item->set_cost(p.cost);
    item->set_area(p.area);
    ToProto(p.centroid, item->mutable_center());
  }
  return absl::OkStatus();
}

}  // namespace waymesh::server
