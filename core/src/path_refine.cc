#include "path_refine.h"

#include <algorithm>
#include <utility>

#include "node_pool.h"
#include "poly_geometry.h"
#include "straight_path.h"
#include "vertex_fan.h"
#include "waymesh/core/tolerances.h"

namespace waymesh::internal {
namespace {

// Each round swaps every inner corner once; rounds stop early when nothing improves.
constexpr int kMaxRounds = 8;
bool SameVertex(Vec3 a, Vec3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

// The vertex at the given end (+1 left, -1 right) of the portal into steps[k].
Vec3 PortalEnd(const QueryContext& ctx, const std::vector<CorridorStep>& steps, size_t k,
               int side) {
  const CorridorStep& from = steps[k - 1];
  const TileView& t = ctx.Tile(from.at.tile);
  const uint32_t n = t.corner_count(from.at.poly);
  const uint32_t i = steps[k].via;
  return t.corner(from.at.poly, side > 0 ? (i + 1) % n : i);
}

bool IsEdgeStep(const CorridorStep& s) { return s.via != kViaStart && !(s.via & kViaLinkBit); }

// Replaces the run of corridor polygons around vertex v (a corner at the portal into
// steps[k] on `side`) by the polygons around v on its other side. False when v touches a wall
// on that side or the walk fails; the corridor is unchanged then.
bool SwapFan(const QueryContext& ctx, const QueryFilter& filter, std::vector<CorridorStep>* steps,
             size_t k, int side, std::vector<CorridorStep>* fan) {
  auto& s = *steps;
  const Vec3 v = PortalEnd(ctx, s, k, side);
  size_t k0 = k, k1 = k;
  while (k0 > 1 && IsEdgeStep(s[k0 - 1]) && SameVertex(PortalEnd(ctx, s, k0 - 1, side), v)) --k0;
  while (k1 + 1 < s.size() && IsEdgeStep(s[k1 + 1]) &&
         SameVertex(PortalEnd(ctx, s, k1 + 1, side), v)) {
    ++k1;
  }
  const CorridorStep first = s[k0 - 1], last = s[k1];
  // Only where walking costs the same on both sides: a shorter path is then a cheaper one.
  auto cost = [&](PolyIndex p) { return filter.Cost(ctx.AreaOf(p)); };
  const float rate = cost(first.at);
  for (size_t j = k0; j <= k1; ++j) {
    if (cost(s[j].at) != rate) return false;
  }
  fan->clear();
  fan->push_back(first);
  const int c = FindCorner(ctx.Tile(first.at.tile), first.at.poly, v);
  if (c < 0) return false;
  // The corridor crossed edges ending at v (left corner) or starting at v (right corner); the
  // other side of v is reached through the other edge at v.
  const FanTurn turn = side > 0 ? FanTurn::kLeaving : FanTurn::kArriving;
  FanPoly p{first.at, uint32_t(c)};
  for (int step = 0; p.at != last.at; ++step) {
    if (step == kMaxFanSteps) return false;
    const std::optional<FanPoly> next = StepRoundVertex(ctx, filter, p, v, turn);
    if (!next || cost(next->at) != rate) return false;
    p = *next;
    fan->push_back({p.at, p.entered_by});
  }
  s.erase(s.begin() + k0 - 1, s.begin() + k1 + 1);
  s.insert(s.begin() + k0 - 1, fan->begin(), fan->end());
  return true;
}

}  // namespace

void RefinePath(QueryContext& ctx, const QueryFilter& filter, const PathOptions& options,
                Vec3 start, Vec3 end, PathResult* out) {
  std::vector<CorridorStep>& fan = ctx.fan;
  for (int round = 0; round < kMaxRounds; ++round) {
    ctx.steps_alt = ctx.steps;
    bool swapped = false;
    // Back to front, so a swap never moves the corridor indices of corners still to visit.
    for (size_t w = ctx.corners.size(); w-- > 0;) {
      const CornerInfo c = ctx.corners[w];
      if (c.side == 0 || c.step == 0 || c.step >= ctx.steps.size()) continue;
      // No separate wall test: the corridor crossed every edge at the corner on its own side,
      // and SwapFan fails at a wall or a rejected polygon on the other, so a swap that
      // succeeds is around a vertex no wall touches (IsWallCorner walked the same fan again).
      swapped |= SwapFan(ctx, filter, &ctx.steps, c.step, c.side, &fan);
    }
    if (!swapped) return;
    ctx.corners_alt.swap(ctx.corners);
    BuildStraightPath(ctx, start, end, filter, options, &ctx.path_alt);
    if (!(ctx.path_alt.length < out->length * (1 - tol::kRefineMinGain))) {
      // No gain: keep the previous corridor and path.
      ctx.steps.swap(ctx.steps_alt);
      ctx.corners.swap(ctx.corners_alt);
      return;
    }
    std::swap(out->corridor, ctx.path_alt.corridor);
    std::swap(out->waypoints, ctx.path_alt.waypoints);
    out->length = ctx.path_alt.length;
  }
}

}  // namespace waymesh::internal
