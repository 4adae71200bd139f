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
  const RayWalkEnd walk = WalkRay(ctx, start, end, filter, [&](uint32_t tile, uint32_t poly, int) {
    out->polys.push_back(PolyRef(tile, poly));
    return true;
  });
  const Vec3 s = start.pos;
  const TileView& t = ctx.Tile(walk.last.tile);
  const uint32_t poly = walk.last.poly;
  switch (walk.kind) {
    case RayWalkEnd::kReachedEnd:
      out->hit_point = {end.x, PolyHeightAt(t, poly, end.x, end.z), end.z};
      return;
    case RayWalkEnd::kBlocked: {
      const uint32_t n = t.corner_count(poly);
      const Vec3 a = t.corner(poly, uint32_t(walk.edge));
      const Vec3 b = t.corner(poly, (uint32_t(walk.edge) + 1) % n);
      const float ex = b.x - a.x, ez = b.z - a.z;
      const float len = std::hypot(ex, ez);
      out->hit = true;
      out->t = walk.t;
      const float x = s.x + (end.x - s.x) * walk.t, z = s.z + (end.z - s.z) * walk.t;
      out->hit_point = {x, PolyHeightAt(t, poly, x, z), z};
      // Inward (left) normal of a counter-clockwise edge.
      out->normal = len > 0 ? Vec3{-ez / len, 0.0f, ex / len} : Vec3{};
      return;
    }
    case RayWalkEnd::kStopped:
      // Only corrupt adjacency gets here; report a hit where the walk stopped rather than loop.
      out->hit = true;
      out->t = walk.t;
      out->hit_point = Lerp(s, end, walk.t);
      return;
  }
}

}  // namespace waymesh::internal
