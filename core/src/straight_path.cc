#include "straight_path.h"

#include <algorithm>
#include <cmath>

#include "funnel.h"
#include "path_search.h"
#include "poly_geometry.h"
#include "vertex_fan.h"
#include "waymesh/core/tolerances.h"

namespace waymesh::internal {
namespace {

// Shrinks portal ends that are wall corners by `clearance`, at most to the portal's middle.
void ApplyClearance(const QueryContext& ctx, const QueryFilter& filter, const CorridorStep& from,
                    uint32_t edge, float clearance, FunnelPortal* portal) {
  const float len = std::sqrt(DistSqXZ(portal->left, portal->right));
  if (len <= tol::kZeroPortal) return;
  const float s = std::min(clearance / len, 0.5f);
  const uint32_t n = ctx.Tile(from.at.tile).corner_count(from.at.poly);
  const bool right_wall = IsWallCorner(ctx, filter, from.at, edge);
  const bool left_wall = IsWallCorner(ctx, filter, from.at, (edge + 1) % n);
  const Vec3 l = portal->left, r = portal->right;
  if (left_wall) portal->left = Lerp(l, r, s);
  if (right_wall) portal->right = Lerp(r, l, s);
}

// Appends waypoints for one stretch of the corridor without off-mesh links:
// steps[begin..end], from `a` (in steps[begin]) to `b` (in steps[end]).
void PullStretch(QueryContext& ctx, const QueryFilter& filter, const PathOptions& options,
                 size_t begin, size_t end, Vec3 a, Vec3 b, std::vector<Waypoint>* out) {
  const auto& steps = ctx.steps;
  ctx.portals.clear();
  for (size_t k = begin + 1; k <= end; ++k) {
    const CorridorStep& from = steps[k - 1];
    const TileView& t = ctx.Tile(from.at.tile);
    const uint32_t n = t.corner_count(from.at.poly);
    const uint32_t i = steps[k].via;
    FunnelPortal portal{t.corner(from.at.poly, (i + 1) % n), t.corner(from.at.poly, i)};
    if (options.clearance > 0) ApplyClearance(ctx, filter, from, i, options.clearance, &portal);
    ctx.portals.push_back(portal);
  }
  ctx.points.clear();
  StringPull(a, b, ctx.portals, &ctx.points);
  const int32_t m = int32_t(ctx.portals.size());
  // Polygon the path continues on after portal j.
  auto step_after = [&](int32_t j) -> const CorridorStep& {
    return steps[begin + size_t(std::clamp(j + 1, 0, m))];
  };
  auto area_changes = [&](int32_t j) {
    return j >= 0 && j < m && ctx.AreaOf(step_after(j - 1).at) != ctx.AreaOf(step_after(j).at);
  };
  for (size_t k = 0; k < ctx.points.size(); ++k) {
    const FunnelPoint& pt = ctx.points[k];
    if (options.area_crossings && k > 0) {
      // Area changes on portals strictly between the previous point and this one.
      const FunnelPoint& prev = ctx.points[k - 1];
      for (int32_t j = prev.portal + 1; j < pt.portal; ++j) {
        if (!area_changes(j)) continue;
        const FunnelPortal& portal = ctx.portals[j];
        const float s = BestPortalParam(prev.pos, pt.pos, portal.left, portal.right);
        const CorridorStep& st = step_after(j);
        out->push_back({Lerp(portal.left, portal.right, s), ctx.Ref(st.at), kWaypointAreaChange,
                        ctx.AreaOf(st.at)});
        ctx.corners.push_back({0, 0});
      }
    }
    const CorridorStep& st = step_after(pt.portal);
    uint8_t flags = 0;
    if (options.area_crossings && area_changes(pt.portal)) flags |= kWaypointAreaChange;
    if (!out->empty() && k == 0 && DistSqXZ(out->back().pos, pt.pos) <= tol::kSamePointSq &&
        out->back().pos.y == pt.pos.y) {
      continue;  // the stretch starts where the previous one ended
    }
    out->push_back({pt.pos, ctx.Ref(st.at), flags, ctx.AreaOf(st.at)});
    const bool corner = pt.side != 0 && pt.portal >= 0 && pt.portal < m;
    ctx.corners.push_back(
        {corner ? uint32_t(begin + pt.portal + 1) : 0, corner ? pt.side : int8_t{0}});
  }
}

}  // namespace

bool IsWallCorner(const QueryContext& ctx, const QueryFilter& filter, PolyIndex poly,
                  uint32_t corner) {
  const Vec3 v = ctx.Tile(poly.tile).corner(poly.poly, corner);
  FanPoly p{poly, corner};
  for (int step = 0; step < kMaxFanSteps; ++step) {
    const TileView& t = ctx.Tile(p.at.tile);
    const uint32_t n = t.corner_count(p.at.poly);
    // The edge arriving at the vertex: a wall there needs no walk round.
    if (t.poly_neighbors[t.poly_start[p.at.poly] + (p.corner + n - 1) % n] == kWall) return true;
    const std::optional<FanPoly> next = StepRoundVertex(ctx, filter, p, v, FanTurn::kLeaving);
    if (!next) return true;  // a wall, a rejected polygon, or corrupt adjacency: be conservative
    if (next->at == poly) return false;
    p = *next;
  }
  return true;
}

double PolylineLength(const std::vector<Waypoint>& waypoints) {
  double sum = 0;
  for (size_t i = 1; i < waypoints.size(); ++i) {
    sum += Distance(waypoints[i - 1].pos, waypoints[i].pos);
  }
  return sum;
}

void BuildStraightPath(QueryContext& ctx, Vec3 start, Vec3 end, const QueryFilter& filter,
                       const PathOptions& options, PathResult* out) {
  const auto& steps = ctx.steps;
  out->corridor.clear();
  for (const CorridorStep& s : steps) out->corridor.push_back(ctx.Ref(s.at));
  out->waypoints.clear();
  ctx.corners.clear();
  size_t begin = 0;
  Vec3 a = start;
  for (size_t k = 1; k <= steps.size(); ++k) {
    const bool link = k < steps.size() && (steps[k].via & kViaLinkBit);
    if (k < steps.size() && !link) continue;
    if (!link) {
      PullStretch(ctx, filter, options, begin, k - 1, a, end, &out->waypoints);
      break;
    }
    const CorridorStep& from = steps[k - 1];
    const OffMeshLink& l = ctx.Tile(from.at.tile).off_mesh_links[steps[k].via & ~kViaLinkBit];
    PullStretch(ctx, filter, options, begin, k - 1, a, l.start, &out->waypoints);
    Waypoint& w = out->waypoints.back();
    ctx.corners.back() = {0, 0};
    w.flags |= kWaypointOffMeshLink;
    w.poly = ctx.Ref(steps[k].at);
    w.area = l.area;
    begin = k;
    a = l.end;
  }
  if (!out->waypoints.empty()) {
    out->waypoints.front().flags |= kWaypointStart;
    out->waypoints.back().flags |= kWaypointEnd;
  }
  out->truncated = false;
  out->length = PolylineLength(out->waypoints);
}

void ApplyWaypointLimit(const PathOptions& options, PathResult* out) {
  if (options.max_waypoints > 0 && out->waypoints.size() > options.max_waypoints) {
    out->waypoints.resize(options.max_waypoints);
    out->truncated = true;
    out->length = PolylineLength(out->waypoints);
  }
}

}  // namespace waymesh::internal
