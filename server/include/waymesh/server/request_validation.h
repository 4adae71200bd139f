#pragma once
// Checks every field of every Navigation request before any work is queued. A bad request gets
// INVALID_ARGUMENT whose message names the field ("start.x", "requests[3].filter.area_costs[70]")
// and the rule it broke; nothing here touches a map.

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "waymesh/v1/navigation.pb.h"

namespace waymesh::server {

// Longest map id (ids are file names without .wmesh, [A-Za-z0-9_.-]).
inline constexpr size_t kMaxMapIdLength = 128;
// Largest half extent of a search box, per component (metres).
inline constexpr float kMaxExtent = 1000.0f;
// Largest PathOptions.max_waypoints.
inline constexpr uint32_t kMaxWaypoints = 10000;
// Most paths in one FindPathBatch call.
inline constexpr int kMaxBatchRequests = 1024;
// Largest PathOptions.agent_radius (metres).
inline constexpr float kMaxAgentRadius = 100.0f;
// Largest per-area cost multiplier.
inline constexpr float kMaxAreaCost = 1e6f;
// Largest distance-like field: max_distance, RandomPoint radius (metres).
inline constexpr float kMaxDistance = 1e6f;
// Largest ValidateMove tolerance (metres).
inline constexpr float kMaxMoveTolerance = 1000.0f;
// Polygon flags are 16 bits wide.
inline constexpr uint32_t kMaxPolyFlags = 0xFFFF;

// A map id must be 1..kMaxMapIdLength characters of [A-Za-z0-9_.-], not "." or "..", and never
// a path: ids name files inside the maps directory and nothing else.
absl::Status ValidateMapId(absl::string_view id, absl::string_view field = "map_id");

// Per-request checks. `prefix` is prepended to field names (e.g. "requests[3].").
absl::Status ValidateFindPath(const v1::FindPathRequest& request, absl::string_view prefix = "");
absl::Status ValidateFindPathBatch(const v1::FindPathBatchRequest& request);
absl::Status ValidateValidateMove(const v1::ValidateMoveRequest& request);
absl::Status ValidateRandomPoint(const v1::RandomPointRequest& request);
absl::Status ValidateRaycast(const v1::RaycastRequest& request);
absl::Status ValidateNearestPoint(const v1::NearestPointRequest& request);
absl::Status ValidateGetMapInfo(const v1::GetMapInfoRequest& request);

}  // namespace waymesh::server
