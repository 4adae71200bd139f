#include "waymesh/server/obstacle_service.h"

#include <chrono>
#include <utility>

#include "navigation_call.h"
#include "waymesh/server/map_name.h"
#include "waymesh/server/obstacle_requests.h"

namespace waymesh::server {
namespace {

void ChangeToProto(const LayerChangeResult& change, v1::ObstacleLayerChange* out) {
  out->set_version(change.version);
  out->set_map_version(change.map_version);
  out->set_obstacles(change.obstacles);
  out->set_tiles_carved(change.tiles_carved);
  out->set_already_held(change.already_held);
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

ObstacleService::ObstacleService(NavigationService* navigation, ObstacleLayers* layers,
                                 ServerMetrics* metrics)
    : navigation_(navigation), layers_(layers), metrics_(metrics) {}

grpc::ServerUnaryReactor* ObstacleService::PutObstacleLayer(grpc::CallbackServerContext* ctx,
                                                            const grpc::ByteBuffer* request,
                                                            grpc::ByteBuffer* response) {
  return navigation_->ServeChange<v1::PutObstacleLayerRequest, v1::PutObstacleLayerResponse>(
      RpcMethod::kPutObstacleLayer, ctx, request, response,
      [this](const auto& r, auto* out) { return Put(r, out); });
}

grpc::ServerUnaryReactor* ObstacleService::UpdateObstacleLayer(grpc::CallbackServerContext* ctx,
                                                               const grpc::ByteBuffer* request,
                                                               grpc::ByteBuffer* response) {
  return navigation_->ServeChange<v1::UpdateObstacleLayerRequest, v1::UpdateObstacleLayerResponse>(
      RpcMethod::kUpdateObstacleLayer, ctx, request, response,
      [this](const auto& r, auto* out) { return Update(r, out); });
}

grpc::ServerUnaryReactor* ObstacleService::DeleteObstacleLayer(grpc::CallbackServerContext* ctx,
                                                               const grpc::ByteBuffer* request,
                                                               grpc::ByteBuffer* response) {
  return navigation_->ServeChange<v1::DeleteObstacleLayerRequest, v1::DeleteObstacleLayerResponse>(
      RpcMethod::kDeleteObstacleLayer, ctx, request, response,
      [this](const auto& r, auto* out) { return Delete(r, out); });
}

grpc::ServerUnaryReactor* ObstacleService::GetObstacleLayer(grpc::CallbackServerContext* ctx,
                                                            const grpc::ByteBuffer* request,
                                                            grpc::ByteBuffer* response) {
  return navigation_->ServeOnWorker<v1::GetObstacleLayerRequest, v1::GetObstacleLayerResponse>(
      RpcMethod::kGetObstacleLayer, ctx, request, response,
      [this](const auto& r, auto* out) { return Get(r, out); });
}

absl::Status ObstacleService::Put(const v1::PutObstacleLayerRequest& r,
                                  v1::PutObstacleLayerResponse* out) {
  if (absl::Status s = ValidatePutObstacleLayer(r); !s.ok()) return s;
  absl::StatusOr<std::vector<Obstacle>> obstacles =
      ObstaclesFromProto(r.obstacles(), "obstacles", layers_->limits());
  if (!obstacles.ok()) return obstacles.status();
  auto map = navigation_->FindMap(r.map_id(), r.agent_type());
  if (!map.ok()) return map.status();
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<LayerChangeResult> change =
      layers_->Put(*std::move(map), r.layer(), r.version(), *std::move(obstacles));
  if (!change.ok()) return change.status();
  if (!change->already_held) metrics_->ObserveObstacleUpdate(SecondsSince(start));
  ChangeToProto(*change, out->mutable_change());
  return absl::OkStatus();
}

absl::Status ObstacleService::Update(const v1::UpdateObstacleLayerRequest& r,
                                     v1::UpdateObstacleLayerResponse* out) {
  if (absl::Status s = ValidateUpdateObstacleLayer(r); !s.ok()) return s;
  absl::StatusOr<std::vector<Obstacle>> upserts =
      ObstaclesFromProto(r.upsert(), "upsert", layers_->limits());
  if (!upserts.ok()) return upserts.status();
  auto map = navigation_->FindMap(r.map_id(), r.agent_type());
  if (!map.ok()) return map.status();
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<LayerChangeResult> change = layers_->Update(
      *std::move(map), r.layer(), r.base_version(), r.version(), *std::move(upserts),
      std::vector<std::string>(r.remove().begin(), r.remove().end()));
  if (!change.ok()) return change.status();
  if (!change->already_held) metrics_->ObserveObstacleUpdate(SecondsSince(start));
  ChangeToProto(*change, out->mutable_change());
  return absl::OkStatus();
}

absl::Status ObstacleService::Delete(const v1::DeleteObstacleLayerRequest& r,
                                     v1::DeleteObstacleLayerResponse* out) {
  if (absl::Status s = ValidateLayerTarget(r.map_id(), r.agent_type(), r.layer()); !s.ok()) {
    return s;
  }
  out->set_deleted(layers_->Delete(MapKey(r.map_id(), r.agent_type()), r.layer()));
  return absl::OkStatus();
}

absl::Status ObstacleService::Get(const v1::GetObstacleLayerRequest& r,
                                  v1::GetObstacleLayerResponse* out) {
  if (absl::Status s = ValidateLayerTarget(r.map_id(), r.agent_type(), r.layer()); !s.ok()) {
    return s;
  }
  auto map = navigation_->FindMap(r.map_id(), r.agent_type());
  if (!map.ok()) return map.status();
  std::optional<HeldLayer> held = layers_->Get((*map)->id(), r.layer());
  if (!held) return absl::OkStatus();
  out->set_version(held->version);
  out->set_map_version(held->map_version);
  for (const Obstacle& o : held->obstacles) ObstacleToProto(o, out->add_obstacles());
  return absl::OkStatus();
}

}  // namespace waymesh::server
