#pragma once
// Checks every field of every NavigationService request before any work is queued. A bad
// request gets INVALID_ARGUMENT with a field violation (error_model.h) naming the field
// ("start.x", "filter.area_costs[70]"; batches prefix "requests[3].") and the rule it broke;
// nothing here touches a map.

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "waymesh/v1/navigation.pb.h"

namespace waymesh::server {

// Longest obstacle layer name.
inline constexpr size_t kMaxLayerNameLength = 64;
// Longest map id (ids are file names without .wmesh, [A-Za-z0-9_.-]).
inline constexpr size_t kMaxMapIdLength = 128;
// Largest half extent of a search box, per component (metres).
inline constexpr float kMaxExtent = 1000.0f;
// Largest PathOptions.max_waypoints.
inline constexpr uint32_t kMaxWaypoints = 10000;
// Most requests in one batch call (FindPathBatch, ValidateMoveBatch, RaycastBatch).
inline constexpr int kMaxBatchRequests = 1024;
// Largest PathOptions.agent_radius (metres).
inline constexpr float kMaxAgentRadius = 100.0f;
// Largest per-area cost multiplier.
inline constexpr float kMaxAreaCost = 1e6f;
// Largest distance-like field: max_distance, RandomPoint radius (metres).
inline constexpr float kMaxDistance = 1e6f;
// Largest ValidateMove tolerance (metres).
inline constexpr float kMaxMoveTolerance = 1000.0f;
// Largest FindDistanceToWall / FindPolygonsInCircle radius (metres).
inline constexpr float kMaxSearchRadius = 1000.0f;
// FindPolygonsInCircle.max_polygons: default and limit.
inline constexpr uint32_t kDefaultCirclePolygons = 256;
inline constexpr uint32_t kMaxCirclePolygons = 4096;
// ListMaps page sizes: default and limit.
inline constexpr int kDefaultListPageSize = 100;
inline constexpr int kMaxListPageSize = 1000;
// Polygon flags are 16 bits wide.
inline constexpr uint32_t kMaxPolyFlags = 0xFFFF;

// A map id must be 1..kMaxMapIdLength characters of [A-Za-z0-9_.-], not "." or "..", and never
// a path: ids name files inside the maps directory and nothing else.
absl::Status ValidateMapId(absl::string_view id, absl::string_view field = "map_id");

// An agent type is empty (the map's default bake) or follows the map id rules.
absl::Status ValidateAgentType(absl::string_view agent_type,
                               absl::string_view field = "agent_type");

// An obstacle layer name: 1..kMaxLayerNameLength characters of [A-Za-z0-9_.-].
absl::Status ValidateLayerName(absl::string_view layer, absl::string_view field = "layer");

// Per-request checks; field names are relative to the request (a batch prefixes them).
// A query filter at `field` ("add_agent.params.filter"): area ids and costs, flag bits.
absl::Status ValidateQueryFilter(const v1::QueryFilter& filter, absl::string_view field);
absl::Status ValidateFindPath(const v1::FindPathRequest& request);
// A batch call holds at most kMaxBatchRequests requests.
absl::Status ValidateBatchSize(int requests);
absl::Status ValidateValidateMove(const v1::ValidateMoveRequest& request);
absl::Status ValidateRandomPoint(const v1::RandomPointRequest& request);
absl::Status ValidateRaycast(const v1::RaycastRequest& request);
absl::Status ValidateNearestPoint(const v1::NearestPointRequest& request);
absl::Status ValidateFindDistanceToWall(const v1::FindDistanceToWallRequest& request);
absl::Status ValidateFindPolygonsInCircle(const v1::FindPolygonsInCircleRequest& request);
absl::Status ValidateGetMapInfo(const v1::GetMapInfoRequest& request);
absl::Status ValidateListMaps(const v1::ListMapsRequest& request);

}  // namespace waymesh::server
