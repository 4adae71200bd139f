#include "surface_height.h"

#include <cmath>

#include "poly_geometry.h"
#include "poly_lookup.h"
#include "waymesh/core/tolerances.h"

namespace waymesh::internal {
namespace {

// Vertical reach of the column searched: every floor (metres).
constexpr float kColumnReach = 2 * tol::kMaxCoordinate;

}  // namespace

std::optional<SurfacePoint> SurfaceHeight(const QueryContext& ctx, float x, float z, float y_hint) {
  const Aabb column{{x, -kColumnReach, z}, {x, kColumnReach, z}};
  std::optional<SurfacePoint> best;
  float best_dy = INFINITY;
  const Vec3 p{x, y_hint, z};
  ForEachPolyInBox(ctx, column, [&](const TileView& tile, uint32_t poly) {
    if (!PointInPolyXZ(tile, poly, p, tol::kInsidePolygon)) return;
    const float y = PolyHeightAt(tile, poly, x, z);
    const float dy = std::fabs(y - y_hint);
    if (dy < best_dy) {
      best_dy = dy;
      best = SurfacePoint{ctx.Ref({tile.index, poly}), {x, y, z}};
    }
  });
  return best;
}

}  // namespace waymesh::internal
