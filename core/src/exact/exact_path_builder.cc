#include "exact/exact_path_builder.h"

#include <algorithm>

#include "poly_geometry.h"
#include "straight_path.h"

namespace waymesh::internal::exact {
namespace {

Waypoint MakeWaypoint(const QueryContext& ctx, Vec3 pos, PolyIndex poly, uint8_t flags) {
  return Waypoint{pos, ctx.Ref(poly), flags, ctx.AreaOf(poly)};
}

// Plan-view distance between segments p1-p2 and q1-q2 (0 when they cross).
double SegmentGap(Point2 p1, Point2 p2, Point2 q1, Point2 q2) {
  const double d1 = Orient(p1, p2, q1), d2 = Orient(p1, p2, q2);
  const double d3 = Orient(q1, q2, p1), d4 = Orient(q1, q2, p2);
  if (((d1 <= 0 && d2 >= 0) || (d1 >= 0 && d2 <= 0)) &&
      ((d3 <= 0 && d4 >= 0) || (d3 >= 0 && d4 <= 0))) {
    return 0;
  }
  return std::min({Dist(q1, ClosestOnSegment(p1, p2, q1)), Dist(q2, ClosestOnSegment(p1, p2, q2)),
                   Dist(p1, ClosestOnSegment(q1, q2, p1)), Dist(p2, ClosestOnSegment(q1, q2, p2))});
}

// Of the parts node `joined` was joined from, the one the path's leg from `from` to `toward`
// crosses (the nearest, against rounding).
uint32_t PartOnLeg(const ExactBuffers& b, uint32_t joined, Point2 from, Point2 toward) {
  uint32_t best = joined;
  double best_gap = INFINITY;
  for (uint32_t m = b.nodes[joined].joined; m != kNone; m = b.nodes[m].joined) {
    const double gap = SegmentGap(from, toward, b.nodes[m].a, b.nodes[m].b);
    if (gap < best_gap) {
      best_gap = gap;
      best = m;
    }
  }
  return best;
}

// Where the leg of the path that starts at root `root` heads: the root after it on the way
// to root `later` (the goal's or a later leg's), or `end` when `later` is `root` itself.
Point2 LegTarget(const ExactBuffers& b, uint32_t root, uint32_t later, Point2 end) {
  if (later == root) return end;
  while (b.roots[later].parent != kNone && b.roots[later].parent != root) {
    later = b.roots[later].parent;
  }
  return b.roots[later].at;
}

// The polygons from the start to node `last`'s polygon, through the nodes' parent chain
// (where a node was joined from several parts, through the part the path crosses).
// `last_root` is the path's last root and `end` its end.
void FillCorridor(QueryContext& ctx, uint32_t last, uint32_t last_root, Point2 end,
                  PathResult* out) {
  ExactBuffers& b = ctx.exact;
  b.chain.clear();
  uint32_t first_root = b.nodes[last].root;
  for (uint32_t i = last; i != kNone; i = b.nodes[i].parent) {
    if (b.nodes[i].joined != kNone) {
      const uint32_t root = b.nodes[i].root;
      i = PartOnLeg(b, i, b.roots[root].at, LegTarget(b, root, last_root, end));
    }
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
  SurfacePoint end = goal;
  uint32_t root = last.root;
  if (!(last.flags & kFinal)) {
    // Partial: to the point of the reached polygon closest to the goal.
    const TileView& t = ctx.Tile(last.poly.tile);
    end = SurfacePoint{ctx.Ref(last.poly), ClosestPointOnPoly(t, last.poly.poly, goal.pos)};
    root = TurnRoot(ctx, &b, last, ToPoint2(end.pos));
  }
  FillCorridor(ctx, found.last, root, ToPoint2(end.pos), out);
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
