#pragma once
// How the viewer's JSON API describes live crowd sessions (viewer_crowd_api.h): a line per
// session for the list, and a session's crowd as of one tick. Coordinates are metres rounded
// to millimetres, velocities to mm/s.

#include <string>

#include "crowd_snapshot.h"
#include "nlohmann/json.hpp"

namespace waymesh::server {

// One line of the crowd list: session, map, agent type, map version, agents, ticks, tick rate.
nlohmann::json CrowdSummaryJson(const CrowdFeed& feed);
// The crowd of `snapshot` as JSON text: the summary fields as of its tick, its crowd time, and
// each agent's id, position [x, y, z], plan-view velocity [x, z], radius and state ("moving",
// ...). Written by hand, not through a JSON tree: a frame is made on every watched tick, and
// this is several times faster (bench/crowd_snapshot).
std::string CrowdSnapshotJson(const CrowdSnapshot& snapshot);

}  // namespace waymesh::server
