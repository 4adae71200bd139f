#pragma once
// What the map viewer's JSON API (docs/viewer.md) reads and how far it goes.

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/time/time.h"
#include "waymesh/server/map_registry.h"
#include "waymesh/server/navigation_service.h"
#include "waymesh/server/obstacle_layers.h"
#include "waymesh/server/path_heat_ring.h"
#include "waymesh/server/worker_pool.h"

namespace waymesh::server {

class CrowdSessions;  // server/src/crowd_sessions.h: CrowdService::registry()

// What the viewer reads; everything must outlive the ViewerApi.
struct ViewerApiOptions {
  const MapRegistry* maps = nullptr;
  WorkerPool* pool = nullptr;
  const PathHeatRing* heat = nullptr;      // null: /api/heat answers an empty ring
  const ObstacleLayers* layers = nullptr;  // null: /api/obstacles answers no layer
  NavigationService* service = nullptr;    // runs the queries
  std::string auth_token;                  // empty = no check
  // A tile with more polygons is refused (413) rather than sent whole.
  uint32_t max_tile_polygons = 65536;
  // Obstacles described by one /api/obstacles answer, over all layers (the rest are counted).
  size_t max_obstacles = 16384;
  // Live crowd sessions (/api/crowds); null: none is listed.
  CrowdSessions* crowds = nullptr;
  int max_crowd_streams = 8;                           // --ui-max-streams: SSE streams at once
  absl::Duration crowd_heartbeat = absl::Seconds(10);  // a comment line when nothing else went
  size_t max_crowd_backlog_bytes = 1 << 20;            // per stream; a frame past it is dropped
};

}  // namespace waymesh::server
