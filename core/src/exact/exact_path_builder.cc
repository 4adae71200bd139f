#include "exact/exact_path_builder.h"

#include <algorithm>

#include "poly_geometry.h"
#include "straight_path.h"

namespace waymesh::internal::exact {
namespace {

Waypoint MakeWaypoint(const QueryContext& ctx, Vec3 pos, PolyIndex poly, uint8_t flags) {
  return Waypoint{pos, ctx.Ref(poly), flags, ctx.AreaOf(poly)};
}

// The polygons from the start to node `last`'s polygon, through the nodes' parent chain.
void FillCorridor(QueryContext& ctx, uint32_t last, PathResult* out) {
  ExactBuffers& b = ctx.exact;
  b.chain.clear();
  uint32_t first_root = b.nodes[last].root;
  for (uint32_t i = last; i != kNone; i = b.nodes[i].parent) {
    const IntervalNode& n = b.nodes[i];
    first_root = n.root;
    // A final node stays in its parent's polygon.
    if (!(n.flags & kFinal)) b.chain.push_back(i);
  }
  // The seed's root is a start root, whose polygon is where the path begins.
  while (b.roots[first_root].parent != kNone) first_root = b.roots[first_root].parent;
  out->corridor.clear();
  out->corridor.push_back(ctx.Ref(b.roots[first_root].poly));
  for (auto it = b.chain.rbegin(); it != b.chain.rend(); ++it) {
    out->corridor.push_back(ctx.Ref(b.nodes[*it].poly));
  }
}

}  // namespace

void BuildExactPath(QueryContext& ctx, const ExactOutcome& found, const SurfacePoint& goal,
                    PathResult* out) {
  ExactBuffers& b = ctx.exact;
  const IntervalNode last = b.nodes[found.last];
  FillCorridor(ctx, found.last, out);
  SurfacePoint end = goal;
  uint32_t root = last.root;
  if (!(last.flags & kFinal)) {
    // Partial: to the point of the reached polygon closest to the goal.
    const TileView& t = ctx.Tile(last.poly.tile);
    end = SurfacePoint{ctx.Ref(last.poly), ClosestPointOnPoly(t, last.poly.poly, goal.pos)};
    root = TurnRoot(ctx, &b, last, ToPoint2(end.pos));
  }
  out->end = end;
  b.chain.clear();
  for (uint32_t r = root; r != kNone; r = b.roots[r].parent) b.chain.push_back(r);
  out->waypoints.clear();
  for (auto it = b.chain.rbegin(); it != b.chain.rend(); ++it) {
    const Root& r = b.roots[*it];
    // A turn at the very point of the previous waypoint (the start on a corner, a link from
    // where another ends) is no turn.
    if (out->waypoints.empty() || out->waypoints.back().pos != r.pos) {
      out->waypoints.push_back(
          MakeWaypoint(ctx, r.pos, r.poly, out->waypoints.empty() ? kWaypointStart : 0));
    }
    if (r.link_start) {
      // As the approximate mode: the link's start names the polygon and area it leads into.
      Waypoint& w = out->waypoints.back();
      w.flags |= kWaypointOffMeshLink;
      w.poly = ctx.Ref(b.roots[*std::next(it)].poly);
      w.area = r.link_area;
    }
  }
  const PolyIndex end_poly = end.poly.index();
  if (out->waypoints.size() > 1 && out->waypoints.back().pos == end.pos) {
    out->waypoints.back().flags |= kWaypointEnd;
  } else {
    out->waypoints.push_back(MakeWaypoint(ctx, end.pos, end_poly, kWaypointEnd));
  }
  out->length = PolylineLength(out->waypoints);
}

}  // namespace waymesh::internal::exact
