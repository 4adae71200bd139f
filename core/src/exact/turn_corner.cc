#include "exact/turn_corner.h"

#include <cmath>
#include <numbers>

#include "vertex_fan.h"

namespace waymesh::internal::exact {
namespace {

// A sector of walkable surface wider than a half turn by more than this (radians) is reflex;
// a straight wall with a vertex in it (exactly pi) is not.
constexpr double kReflexSlack = 1e-9;

// The first corner of polygon `p` from `corner` in steps of `step` (+1 or n - 1) not at v in
// plan view: carving can leave a corner doubled, and a zero-length side has no direction.
Vec3 DistinctNeighbour(const TileView& t, uint32_t p, uint32_t corner, uint32_t step, Vec3 v) {
  const uint32_t n = t.corner_count(p);
  uint32_t i = (corner + step) % n;
  for (uint32_t k = 1; k + 1 < n && t.corner(p, i).x == v.x && t.corner(p, i).z == v.z; ++k) {
    i = (i + step) % n;
  }
  return t.corner(p, i);
}

// Plan-view angle of polygon `poly` at its corner `corner` (in [0, pi]: polygons are convex).
double CornerAngle(const QueryContext& ctx, PolyIndex poly, uint32_t corner) {
  const TileView& t = ctx.Tile(poly.tile);
  const uint32_t n = t.corner_count(poly.poly);
  const Vec3 v = t.corner(poly.poly, corner);
  const Vec3 prev = DistinctNeighbour(t, poly.poly, corner, n - 1, v);
  const Vec3 next = DistinctNeighbour(t, poly.poly, corner, 1, v);
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
