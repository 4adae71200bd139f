#include "connectivity_check.h"

#include "absl/strings/str_format.h"
#include "waymesh/format/finding_place.h"

namespace waymesh {

std::vector<MapFinding> CheckConnectedPairs(NavQuery& query, std::span<const ConnectedPair> pairs,
                                            Vec3 half_extents) {
  std::vector<MapFinding> findings;
  const QueryFilter filter(query.map().info());
  PathOptions options;
  options.half_extents = half_extents;
  PathResult result;
  for (const ConnectedPair& pair : pairs) {
    const absl::Status status = query.FindPath(pair.a, pair.b, filter, options, &result);
    std::string why;
    if (!status.ok()) {
      why = std::string(status.message());
    } else if (result.status != QueryStatus::kComplete) {
      why = std::string(QueryStatusName(result.status));
      if (result.status == QueryStatus::kPartial && !result.waypoints.empty()) {
        why += " (gets no closer than " + PositionText(result.waypoints.back().pos) + ")";
      }
    }
    if (why.empty()) continue;
    findings.push_back({std::string(kCheckConnected),
                        absl::StrFormat("%s -> %s: no complete path: %s", PositionText(pair.a),
                                        PositionText(pair.b), why)});
  }
  return findings;
}

}  // namespace waymesh
