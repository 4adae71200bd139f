#include "viewer_crowd_json.h"

#include <cmath>
#include <string>

namespace waymesh::server {
namespace {

using nlohmann::json;

double CrowdMillimetres(double metres) { return std::round(metres * 1000.0) / 1000.0; }

// Fields the list and a snapshot share.
json CrowdHeaderJson(const CrowdFeedInfo& info) {
  return {{"session", info.session},
          {"map", info.map_id},
          {"agent_type", info.agent_type},
          {"tick_hz", info.tick_hz}};
}

}  // namespace

json CrowdSummaryJson(const CrowdFeed& feed) {
  json out = CrowdHeaderJson(feed.info());
  out["map_version"] = feed.map_version();
  out["agents"] = feed.agent_count();
  out["tick"] = feed.ticks();
  return out;
}

json CrowdSnapshotJson(const CrowdSnapshot& snapshot) {
  json agents = json::array();
  for (const crowd::AgentUpdate& a : snapshot.agents) {
    agents.push_back(
        {{"id", a.id},
         {"position",
          {CrowdMillimetres(a.pos.x), CrowdMillimetres(a.pos.y), CrowdMillimetres(a.pos.z)}},
         {"velocity", {CrowdMillimetres(a.vel.x), CrowdMillimetres(a.vel.z)}},
         {"radius", CrowdMillimetres(a.radius)},
         {"state", std::string(crowd::AgentStateName(a.state))}});
  }
  json out = CrowdHeaderJson(snapshot.info);
  out["map_version"] = snapshot.map_version;
  out["tick"] = snapshot.tick;
  out["time"] = CrowdMillimetres(snapshot.time_seconds);
  out["agent_count"] = snapshot.agents.size();
  out["agents"] = std::move(agents);
  return out;
}

}  // namespace waymesh::server
