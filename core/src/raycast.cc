#include "raycast.h"

#include <algorithm>
#include <cmath>

#include "poly_geometry.h"
#include "waymesh/core/tolerances.h"

namespace waymesh::internal {

float RayExit(const TileView& tile, uint32_t poly, Vec3 start, Vec3 d, int* edge) {
  const uint32_t n = tile.corner_count(poly);
  float best = INFINITY;
  *edge = -1;
  float best_outside = INFINITY;
  for (uint32_t i = 0; i < n; ++i) {
    const Vec3 a = tile.corner(poly, i);
    const Vec3 b = tile.corner(poly, i + 1 == n ? 0 : i + 1);
    // The ray leaves through edge a->b only if it heads to the edge's outer (right) side.
    const float toward = (b.x - a.x) * d.z - d.x * (b.z - a.z);
    if (!(toward < 0)) continue;
    const float s = TriArea2XZ(a, b, start) / -toward;
    // Collinear edges (kept T-junction points) give the same exit parameter: the one whose
    // segment holds the crossing point is the real exit.
    const float tie = tol::kRayExitTie * (1.0f + std::fabs(best));
    if (s > best + tie) continue;
    const Vec3 p{start.x + d.x * s, 0.0f, start.z + d.z * s};
    const float u = ClosestParamXZ(a, b, p);
    const float outside = DistSqXZ(Lerp(a, b, u), p);
    if (s < best - tie || outside < best_outside) {
      best = std::min(best, s);
      best_outside = outside;
      *edge = int(i);
    }
  }
  return best;
}

void RaycastAlongSurface(const QueryContext& ctx, const SurfacePoint& start, Vec3 end,
                         const QueryFilter& filter, RaycastResult* out) {
  out->status = QueryStatus::kComplete;
  out->polys.clear();
  out->hit = false;
  out->t = 1.0f;
  out->normal = {};
  const Vec3 s = start.pos;
  const Vec3 d{end.x - s.x, 0.0f, end.z - s.z};
  uint32_t tile = start.poly.tile(), poly = start.poly.poly();
  float t_in = 0;
  // Each step enters a new polygon further along the ray; the bound only stops corrupt data.
  const uint64_t max_steps = uint64_t(ctx.tile_base.back()) + 1;
  for (uint64_t step = 0; step < max_steps; ++step) {
    out->polys.push_back(PolyRef(tile, poly));
    const TileView& t = ctx.Tile(tile);
    int edge = -1;
    const float exit = std::max(RayExit(t, poly, s, d, &edge), t_in);
    if (exit >= 1.0f || edge < 0) {
      out->hit_point = {end.x, PolyHeightAt(t, poly, end.x, end.z), end.z};
      return;
    }
    const std::optional<TilePoly> nb = t.across(t.poly_start[poly] + uint32_t(edge));
    if (!nb || !ctx.Exists(nb->tile, nb->poly) || !ctx.Passes(filter, nb->tile, nb->poly)) {
      const uint32_t n = t.corner_count(poly);
      const Vec3 a = t.corner(poly, uint32_t(edge));
      const Vec3 b = t.corner(poly, (uint32_t(edge) + 1) % n);
      const float ex = b.x - a.x, ez = b.z - a.z;
      const float len = std::hypot(ex, ez);
      out->hit = true;
      out->t = exit;
      const float x = s.x + d.x * exit, z = s.z + d.z * exit;
      out->hit_point = {x, PolyHeightAt(t, poly, x, z), z};
      // Inward (left) normal of a counter-clockwise edge.
      out->normal = len > 0 ? Vec3{-ez / len, 0.0f, ex / len} : Vec3{};
      return;
    }
    tile = nb->tile;
    poly = nb->poly;
    t_in = exit;
  }
  // Unreachable on a valid map; report a hit where we stopped rather than loop.
  out->hit = true;
  out->t = t_in;
  out->hit_point = Lerp(s, end, t_in);
}

}  // namespace waymesh::internal
