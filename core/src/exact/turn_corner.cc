#include "exact/turn_corner.h"

#include <cmath>

#include "exact/interval_geometry.h"
#include "vertex_fan.h"

namespace waymesh::internal::exact {
namespace {

// |sin| of the sector's excess over a half turn below this (relative) is a straight wall with
// a vertex in it, not a corner to turn round.
constexpr double kStraightSine = 1e-12;

// Direction from corner `corner` of polygon `poly` to its neighbouring corner `offset` (1:
// next, n - 1: previous).
Point2 EdgeDirection(const QueryContext& ctx, PolyIndex poly, uint32_t corner, uint32_t offset) {
  const TileView& t = ctx.Tile(poly.tile);
  const uint32_t n = t.corner_count(poly.poly);
  const Vec3 v = t.corner(poly.poly, corner), w = t.corner(poly.poly, (corner + offset) % n);
  return {double(w.x) - v.x, double(w.z) - v.z};
}

}  // namespace

bool IsTurnCorner(const QueryContext& ctx, const QueryFilter& filter, PolyIndex poly,
                  uint32_t corner) {
  const Vec3 v = ctx.Tile(poly.tile).corner(poly.poly, corner);
  // Polygons have the map's winding, so crossing the edge to the next corner steps clockwise
  // round v and crossing the edge from the previous one counter-clockwise: the walkable sector
  // runs counter-clockwise from the last clockwise polygon's next-corner edge to the last
  // counter-clockwise polygon's previous-corner edge.
  Point2 ends[2];
  for (const FanTurn turn : {FanTurn::kLeaving, FanTurn::kArriving}) {
    FanPoly p{poly, corner};
    int step = 0;
    for (; step < kMaxFanSteps; ++step) {
      const std::optional<FanPoly> next = StepRoundVertex(ctx, filter, p, v, turn);
      if (!next) break;
      if (next->at == poly) return false;  // all the way round: an inner vertex
      p = *next;
    }
    if (step == kMaxFanSteps) return true;
    const uint32_t n = ctx.Tile(p.at.tile).corner_count(p.at.poly);
    ends[turn == FanTurn::kLeaving ? 0 : 1] =
        EdgeDirection(ctx, p.at, p.corner, turn == FanTurn::kLeaving ? 1 : n - 1);
  }
  // Wider than a half turn: the counter-clockwise end lies clockwise of the other.
  const Point2 cw = ends[0], ccw = ends[1];
  const double sine = cw.x * ccw.z - cw.z * ccw.x;
  const double scale = std::sqrt((cw.x * cw.x + cw.z * cw.z) * (ccw.x * ccw.x + ccw.z * ccw.z));
  return sine < -kStraightSine * scale;
}

}  // namespace waymesh::internal::exact
