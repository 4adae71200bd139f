#include "nearest_poly.h"

#include <cmath>

#include "poly_geometry.h"
#include "poly_lookup.h"
#include "waymesh/core/tolerances.h"

namespace waymesh::internal {

std::optional<SurfacePoint> FindNearestPoly(const QueryContext& ctx, Vec3 pos, Vec3 half_extents,
                                            const QueryFilter& filter) {
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
