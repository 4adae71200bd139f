#pragma once
// waymesh.v1.ObstacleService (proto/waymesh/v1/obstacles.proto, docs/obstacles.md): the caller's
// obstacle layers put, updated, deleted and read on this replica. Calls run on the navigation
// service's machinery (admission, drain, bearer token, metrics) and carve on its worker pool,
// so a change waits in the same bounded queue as queries and never blocks a gRPC thread.

#include "grpcpp/grpcpp.h"
#include "waymesh/server/metrics.h"
#include "waymesh/server/navigation_service.h"
#include "waymesh/server/obstacle_layers.h"
#include "waymesh/v1/obstacles.grpc.pb.h"

namespace waymesh::server {

// The generated service with every method taking and returning raw bytes (see
// navigation_service.h for why).
using RawObstacleService = v1::ObstacleService::WithRawCallbackMethod_PutObstacleLayer<
    v1::ObstacleService::WithRawCallbackMethod_UpdateObstacleLayer<
        v1::ObstacleService::WithRawCallbackMethod_DeleteObstacleLayer<
            v1::ObstacleService::WithRawCallbackMethod_GetObstacleLayer<
                v1::ObstacleService::Service>>>>;

class ObstacleService final : public RawObstacleService {
 public:
  // Every pointer must outlive the service and every call it admitted.
  ObstacleService(NavigationService* navigation, ObstacleLayers* layers, ServerMetrics* metrics);

  grpc::ServerUnaryReactor* PutObstacleLayer(grpc::CallbackServerContext* ctx,
                                             const grpc::ByteBuffer* request,
                                             grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* UpdateObstacleLayer(grpc::CallbackServerContext* ctx,
                                                const grpc::ByteBuffer* request,
                                                grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* DeleteObstacleLayer(grpc::CallbackServerContext* ctx,
                                                const grpc::ByteBuffer* request,
                                                grpc::ByteBuffer* response) override;
  grpc::ServerUnaryReactor* GetObstacleLayer(grpc::CallbackServerContext* ctx,
                                             const grpc::ByteBuffer* request,
                                             grpc::ByteBuffer* response) override;

 private:
  absl::Status Put(const v1::PutObstacleLayerRequest& r, v1::PutObstacleLayerResponse* out);
  absl::Status Update(const v1::UpdateObstacleLayerRequest& r,
                      v1::UpdateObstacleLayerResponse* out);
  absl::Status Delete(const v1::DeleteObstacleLayerRequest& r,
                      v1::DeleteObstacleLayerResponse* out);
  absl::Status Get(const v1::GetObstacleLayerRequest& r, v1::GetObstacleLayerResponse* out);

  NavigationService* navigation_;
  ObstacleLayers* layers_;
  ServerMetrics* metrics_;
};

}  // namespace waymesh::server
