#include "viewer_crowd_json.h"

#include <charconv>
#include <cmath>
#include <string>

#include "absl/strings/str_cat.h"

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

// `metres` with three decimals (a finite float; a state the crowd never produces otherwise
// writes 0, as JSON has no NaN).
void AppendMillimetres(float metres, std::string* out) {
  char buffer[48];
  const double value = std::isfinite(metres) ? double(metres) : 0.0;
  const auto end =
      std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::fixed, 3).ptr;
  out->append(buffer, end);
}

}  // namespace

json CrowdSummaryJson(const CrowdFeed& feed) {
  json out = CrowdHeaderJson(feed.info());
  out["map_version"] = feed.map_version();
  out["agents"] = feed.agent_count();
  out["tick"] = feed.ticks();
  return out;
}

std::string CrowdSnapshotJson(const CrowdSnapshot& snapshot) {
  // The header through the JSON library (strings are escaped there), without its closing brace.
  json header = CrowdHeaderJson(snapshot.info);
  header["map_version"] = snapshot.map_version;
  header["tick"] = snapshot.tick;
  header["time"] = CrowdMillimetres(snapshot.time_seconds);
  header["agent_count"] = snapshot.agents.size();
  std::string out = header.dump();
  out.pop_back();
  out.reserve(out.size() + 120 * snapshot.agents.size() + 16);
  out += ",\"agents\":[";
  for (size_t i = 0; i < snapshot.agents.size(); ++i) {
    const crowd::AgentUpdate& a = snapshot.agents[i];
    if (i > 0) out += ',';
    absl::StrAppend(&out, "{\"id\":", a.id, ",\"position\":[");
    AppendMillimetres(a.pos.x, &out);
    out += ',';
    AppendMillimetres(a.pos.y, &out);
    out += ',';
    AppendMillimetres(a.pos.z, &out);
    out += "],\"velocity\":[";
    AppendMillimetres(a.vel.x, &out);
    out += ',';
    AppendMillimetres(a.vel.z, &out);
    out += "],\"radius\":";
    AppendMillimetres(a.radius, &out);
    out += ",\"state\":\"";
    out += crowd::AgentStateName(a.state);
    out += "\"}";
  }
  out += "]}";
  return out;
}

}  // namespace waymesh::server
