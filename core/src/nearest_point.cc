#include "nearest_point.h"

#include <algorithm>
#include <cmath>

#include "poly_geometry.h"
#include "poly_lookup.h"
#include "waymesh/core/tolerances.h"

namespace waymesh::internal {

namespace {

// The accepted polygon under `pos` (plan view inside it) whose surface there is nearest in
// height, within reach_y, and that surface point; nullopt when there is none. Walks only the
// boxes over the point itself and stops at a surface within tol::kOnSurface of it. Most lookups
// are of points on the surface (a mover's position, a path's end), answered here at once; for
// the others it is a candidate that lets the walk of the whole box skip most of its polygons.
std::optional<SurfacePoint> SurfaceUnder(const QueryContext& ctx, Vec3 pos, float reach_y,
                                         const QueryFilter& filter) {
  const Aabb line{{pos.x, pos.y - reach_y, pos.z}, {pos.x, pos.y + reach_y, pos.z}};
  std::optional<SurfacePoint> found;
  float best_dy = INFINITY;
  ForEachPolyInBox(ctx, line, [&](const TileView& tile, uint32_t poly) {
    if (!filter.Passes(tile.poly_area[poly], tile.poly_flags[poly])) return true;
    if (!PointInPolyXZ(tile, poly, pos, tol::kInsidePolygon)) return true;
    const float y = PolyHeightAt(tile, poly, pos.x, pos.z);
    const float dy = std::fabs(y - pos.y);
    if (dy > reach_y || dy >= best_dy) return true;
    best_dy = dy;
    found = SurfacePoint{ctx.Ref({tile.index, poly}), Vec3{pos.x, y, pos.z}};
    return dy > tol::kOnSurface;
  });
  return found;
}

}  // namespace

std::optional<SurfacePoint> NearestPoint(const QueryContext& ctx, Vec3 pos, Vec3 half_extents,
                                            const QueryFilter& filter) {
  const std::optional<SurfacePoint> under = SurfaceUnder(ctx, pos, half_extents.y, filter);
  if (under && std::fabs(under->pos.y - pos.y) <= tol::kOnSurface) return under;
  // The point above or below the surface under it: that distance is the one to beat (same x
  // and z), and only polygons reaching within it of the point can, so the box shrinks to it.
  Vec3 reach = half_extents;
  float best_sq = INFINITY;
  SurfacePoint best;
  if (under) {
    const float d = std::fabs(under->pos.y - pos.y);
    best_sq = d * d;
    best = *under;
    const float r = d * (1 + 1e-5f) + tol::kOnSurface;  // rounding must not shut a rival out
    reach = {std::min(reach.x, r), std::min(reach.y, r), std::min(reach.z, r)};
  }
  const Aabb box{pos - reach, pos + reach};
  ForEachPolyInBox(ctx, box, [&](const TileView& tile, uint32_t poly) {
    if (!filter.Passes(tile.poly_area[poly], tile.poly_flags[poly])) return true;
    // Most candidates in the box lie clearly beside the point: drop them before the exact
    // closest-point search (which could only find them farther still).
    const float separation_sq = SeparationSqXZ(tile, poly, pos);
    if (separation_sq > best_sq) return true;
    Vec3 q = ClosestPointInPolyXZ(tile, poly, pos, separation_sq);
    const float dxz_sq = DistSqXZ(q, pos);
    if (dxz_sq > best_sq) return true;  // cannot win even at the same height
    q.y = PolyHeightAt(tile, poly, q.x, q.z);
    const float dy = q.y - pos.y;
    // The box bounds the vertical reach: a floor outside it is not a candidate.
    if (std::fabs(dy) > half_extents.y) return true;
    const float d_sq = dxz_sq + dy * dy;
    if (d_sq < best_sq) {
      best_sq = d_sq;
      best = SurfacePoint{ctx.Ref({tile.index, poly}), q};
    }
    // A point on the surface: no polygon can be nearer by more than float noise.
    return best_sq > tol::kOnSurface * tol::kOnSurface;
  });
  if (!best.poly.valid()) return std::nullopt;
  return best;
}

}  // namespace waymesh::internal
