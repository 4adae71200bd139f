#pragma once
// The ObstacleService requests: every field checked before any work is queued (INVALID_ARGUMENT
// with a field violation naming e.g. "obstacles[3].cylinder.radius", RESOURCE_EXHAUSTED past a
// limit) and obstacles converted between the wire and core.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "waymesh/core/obstacles/obstacle.h"
#include "waymesh/server/obstacle_layers.h"
#include "waymesh/v1/obstacles.pb.h"

namespace waymesh::server {

// The obstacles of a request (`field` names the repeated field), each checked as
// ValidateObstacle does plus the prism vertex and per-layer limits of `limits`.
absl::StatusOr<std::vector<Obstacle>> ObstaclesFromProto(
    const google::protobuf::RepeatedPtrField<v1::Obstacle>& obstacles, absl::string_view field,
    const ObstacleLayerLimits& limits);
void ObstacleToProto(const Obstacle& obstacle, v1::Obstacle* out);

// The map and layer every obstacle request names.
absl::Status ValidateLayerTarget(absl::string_view map_id, absl::string_view agent_type,
                                 absl::string_view layer);
// Put: version > 0. Update: base_version > 0, version > base_version, remove ids not empty.
absl::Status ValidatePutObstacleLayer(const v1::PutObstacleLayerRequest& r);
absl::Status ValidateUpdateObstacleLayer(const v1::UpdateObstacleLayerRequest& r);

}  // namespace waymesh::server
