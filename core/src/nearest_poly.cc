#include "nearest_poly.h"

#include <cmath>

#include "poly_geometry.h"
#include "poly_lookup.h"
#include "waymesh/core/tolerances.h"

namespace waymesh::internal {

namespace {

// An accepted polygon whose surface passes through `pos` (plan view inside it, height within
// tol::kOnSurface), found by walking only the boxes over the point itself; nullopt when there is
// none. Most lookups are of points on the surface (a mover's position, a path's end), and the
// walk of the whole query box would first measure exactly every candidate it meets.
std::optional<SurfacePoint> SurfaceThrough(const QueryContext& ctx, Vec3 pos, float reach_y,
                                           const QueryFilter& filter) {
  const Aabb line{{pos.x, pos.y - reach_y, pos.z}, {pos.x, pos.y + reach_y, pos.z}};
  std::optional<SurfacePoint> found;
  ForEachPolyInBox(ctx, line, [&](const TileView& tile, uint32_t poly) {
    if (!filter.Passes(tile.poly_area[poly], tile.poly_flags[poly])) return true;
    if (!PointInPolyXZ(tile, poly, pos, tol::kInsidePolygon)) return true;
    const float y = PolyHeightAt(tile, poly, pos.x, pos.z);
    if (std::fabs(y - pos.y) > tol::kOnSurface) return true;
    found = SurfacePoint{PolyRef(tile.index, poly), Vec3{pos.x, y, pos.z}};
    return false;
  });
  return found;
}

}  // namespace

std::optional<SurfacePoint> FindNearestPoly(const QueryContext& ctx, Vec3 pos, Vec3 half_extents,
                                            const QueryFilter& filter) {
  if (std::optional<SurfacePoint> on = SurfaceThrough(ctx, pos, half_extents.y, filter)) return on;
  const Aabb box{pos - half_extents, pos + half_extents};
  float best_sq = INFINITY;
  SurfacePoint best;
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
      best = SurfacePoint{PolyRef(tile.index, poly), q};
    }
    // A point on the surface: no polygon can be nearer by more than float noise.
    return best_sq > tol::kOnSurface * tol::kOnSurface;
  });
  if (!best.poly.valid()) return std::nullopt;
  return best;
}

}  // namespace waymesh::internal
