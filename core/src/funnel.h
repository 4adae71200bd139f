#pragma once
// The funnel, in its two forms. String pulling: the shortest plan-view polyline from a start
// point through a sequence of portals to an end point, for a corridor already found. Funnel
// states: the same cone carried by each A* node while the corridor is still being searched,
// advanced one portal at a time, so that a node's cost is the taut path through its corridor.
// Portals are given left/right as seen walking forwards.

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

// The funnel a search node's path arrives with: the path runs straight from `apex` (reached
// at cost `g`) through the cone between the rays apex->left and apex->right, at `rate` cost
// per metre. left == apex (or right == apex) means that side is not constrained yet.
struct FunnelState {
  Vec3 apex;
  Vec3 left;
  Vec3 right;
  float g;
  float rate;
};

// Moves a funnel through portal (l, r): narrows the cone, or bends at a cone corner when the
// portal lies wholly outside it.
void AdvanceFunnel(FunnelState* s, Vec3 l, Vec3 r);

// The part of portal (l, r) visible from the funnel's apex inside its cone, as its two end
// points (left end, right end).
void VisiblePart(const FunnelState& s, Vec3 l, Vec3 r, Vec3* vis_l, Vec3* vis_r);

// Cost of reaching `target` (a point just past the funnel's last portal) from the funnel.
float FunnelCostTo(FunnelState s, Vec3 target);

// Parameter in [0, 1] along segment l->r of the point minimising |a - p| + |p - g| (plan view).
float BestPortalParam(Vec3 a, Vec3 g, Vec3 l, Vec3 r);

// Appends the path's points to *out: start, every corner (a portal end point), end. Points
// equal to the previous one are not repeated. Collinear and zero-width portals are fine.
void StringPull(Vec3 start, Vec3 end, std::span<const FunnelPortal> portals,
                std::vector<FunnelPoint>* out);

}  // namespace waymesh::internal
