#pragma once
// How the viewer's JSON API describes the obstacle layers a replica holds on a map
// (viewer_api.h): per layer its version and each obstacle's plan-view footprint as carving
// uses it.

#include <string>

#include "nlohmann/json.hpp"
#include "waymesh/core/nav_map.h"
#include "waymesh/server/obstacle_layers.h"

namespace waymesh::server {

// Layer `name` as held: name, version, map_version and at most `*budget` obstacles (id, effect,
// area, y range, XZ outline of the footprint on a map baked for `agent`); `*budget` is reduced
// by the obstacles written, and "truncated" says whether some were left out.
nlohmann::json ObstacleLayerJson(const std::string& name, const HeldLayer& layer,
                                 const AgentSettings& agent, size_t* budget);

}  // namespace waymesh::server
