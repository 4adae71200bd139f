#include "exact/turn_corner.h"

#include <cmath>
#include <numbers>

#include "vertex_fan.h"

namespace waymesh::internal::exact {
namespace {

// A sector of walkable surface wider than a half turn by more than this (radians) is reflex;
// a straight wall with a vertex in it (exactly pi) is not.
constexpr double kReflexSlack = 1e-9;

// Plan-view angle of polygon `poly` at its corner `corner` (in [0, pi]: polygons are convex).
double CornerAngle(const QueryContext& ctx, PolyIndex poly, uint32_t corner) {
  const TileView& t = ctx.Tile(poly.tile);
  const uint32_t n = t.corner_count(poly.poly);
  const Vec3 v = t.corner(poly.poly, corner);
  const Vec3 prev = t.corner(poly.poly, (corner + n - 1) % n);
  const Vec3 next = t.corner(poly.poly, (corner + 1) % n);
  const double ax = prev.x - v.x, az = prev.z - v.z, bx = next.x - v.x, bz = next.z - v.z;
  return std::atan2(std::abs(ax * bz - az * bx), ax * bx + az * bz);
}

}  // namespace

bool IsTurnCorner(const QueryContext& ctx, const QueryFilter& filter, PolyIndex poly,
                  uint32_t corner) {
  const Vec3 v = ctx.Tile(poly.tile).corner(poly.poly, corner);
  double angle = CornerAngle(ctx, poly, corner);
  for (const FanTurn turn : {FanTurn::kLeaving, FanTurn::kArriving}) {
    FanPoly p{poly, corner};
    int step = 0;
    for (; step < kMaxFanSteps; ++step) {
      const std::optional<FanPoly> next = StepRoundVertex(ctx, filter, p, v, turn);
      if (!next) break;
      if (next->at == poly) return false;  // all the way round: an inner vertex
      angle += CornerAngle(ctx, next->at, next->corner);
      p = *next;
    }
    if (step == kMaxFanSteps) return true;
  }
  return angle > std::numbers::pi + kReflexSlack;
}

}  // namespace waymesh::internal::exact
