#pragma once
// String pulling ("funnel"): the shortest plan-view polyline from a start point through a
// sequence of portals to an end point. Portals are given left/right as seen walking forwards.

#include <cstdint>
#include <span>
#include <vector>

#include "waymesh/core/vec3.h"

namespace waymesh::internal {

struct FunnelPortal {
  Vec3 left;
  Vec3 right;
};

struct FunnelPoint {
  Vec3 pos;
  int32_t portal;  // index of the portal the point lies on; -1 = start, portals.size() = end
  int8_t side;     // +1: the path bends at the portal's left end, -1: right end, 0: start/end
};

// Appends the path's points to *out: start, every corner (a portal end point), end. Points
// equal to the previous one are not repeated. Collinear and zero-width portals are fine.
void StringPull(Vec3 start, Vec3 end, std::span<const FunnelPortal> portals,
                std::vector<FunnelPoint>* out);

}  // namespace waymesh::internal
