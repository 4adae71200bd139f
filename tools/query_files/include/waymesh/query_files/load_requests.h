#pragma once
// Request samples for load tests, drawn from a map: the `data` arrays of ghz configs
// (protobuf JSON mapping of waymesh.v1 requests), so ghz users and `waymesh-load` send exactly
// the same load. Deterministic for a seed.

#include <cstdint>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"

namespace waymesh {

enum class LoadRpc {
  kFindPath,
  kValidateMove,
  kRaycast,
  kRandomPoint,
  kNearestPoint,
  kFindDistanceToWall,
  kFindPolygonsInCircle,
  // Batches: `batch_size` requests of the single RPC in each message.
  kFindPathBatch,
  kValidateMoveBatch,
  kRaycastBatch,
};

// Most requests one batch message may hold (the server's limit).
inline constexpr uint32_t kMaxBatchSize = 1024;

// "FindPath" -> kFindPath, ... (the RPC names of waymesh.v1.NavigationService); InvalidArgument
// listing the names otherwise.
absl::StatusOr<LoadRpc> ParseLoadRpc(const std::string& name);

struct LoadRequestOptions {
  LoadRpc rpc = LoadRpc::kFindPath;
  std::string map_id;        // written into every request
  uint32_t count = 1000;     // request messages (for a batch RPC: batches)
  uint32_t batch_size = 64;  // requests in each batch message
  uint64_t seed = 1;
  // Zone-local patterns (zone servers own regions): with zones > 0, each request starts within
  // zone_radius of one of `zones` random centres (taken in turn).
  uint32_t zones = 0;
  float zone_radius = 100;
  // FindPath: the goal lies within this distance (plan view) of the start, reachable inside
  // that disc; 0 = anywhere on the start's island.
  float max_path_distance = 0;
  // FindPath: ask for exact paths (PATH_MODE_EXACT). On a map whose default filter exact mode
  // cannot take (areas of different costs), the requests' filter gives every area cost 1
  // (the same areas, off-mesh links' included); pairs are drawn under it.
  bool exact_paths = false;
  float move_length = 3;   // ValidateMove: length of a move (metres); max_distance is 2x
  float ray_length = 20;   // Raycast: length of a ray (metres)
  float query_radius = 5;  // FindDistanceToWall max_radius, FindPolygonsInCircle radius (m)
};

// The JSON array of `count` request messages. FindPath pairs are checked to have a complete path;
// ValidateMove moves start on the surface and head in a random direction (some hit walls,
// as real traffic does). Errors: a map with no walkable surface, bad options.
absl::StatusOr<std::string> GenerateLoadRequests(std::shared_ptr<const NavMap> map,
                                                 const LoadRequestOptions& options);

}  // namespace waymesh
