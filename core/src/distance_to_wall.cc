#include "distance_to_wall.h"

#include <cmath>

#include "disc_flood.h"
#include "poly_geometry.h"
#include "waymesh/core/tolerances.h"

namespace waymesh::internal {
namespace {

// Whether edge `i` of polygon `at` is a wall for `filter`: nothing across it, a tile that
// cannot be loaded, or a polygon the filter rejects. Off-mesh links are not edges, so never
// walls.
bool IsWall(const QueryContext& ctx, const QueryFilter& filter, const TileView& t, PolyIndex at,
            uint32_t i) {
  const std::optional<PolyIndex> nb = t.across(t.poly_start[at.poly] + i);
  return !nb || !ctx.Exists(*nb) || !ctx.Passes(filter, *nb);
}

// Horizontal unit vector from wall point `hit` of edge a -> b towards `center`.
Vec3 AwayFromWall(Vec3 a, Vec3 b, Vec3 hit, Vec3 center) {
  Vec3 d{center.x - hit.x, 0, center.z - hit.z};
  float len = std::hypot(d.x, d.z);
  if (len < tol::kOnWall) {
    // On the wall: its inward normal (the polygon lies left of a -> b in the map's winding).
    d = {a.z - b.z, 0, b.x - a.x};
    len = std::hypot(d.x, d.z);
  }
  return len > 0 ? d * (1.0f / len) : Vec3{};
}

// Every field saying "no wall within the radius".
void NoWallFound(Vec3 center, float max_radius, WallDistance* out) {
  out->found = false;
  out->distance = max_radius;
  out->hit_point = center;
  out->hit_normal = Vec3{};
  out->wall_poly = PolyRef();
}

}  // namespace

void WallDistanceOffMesh(Vec3 center, float max_radius, WallDistance* out) {
  out->status = QueryStatus::kStartOffMesh;
  out->center = SurfacePoint{PolyRef(), center};
  out->node_limit = false;
  NoWallFound(center, max_radius, out);
}

void DistanceToWall(QueryContext& ctx, const SurfacePoint& center, float max_radius,
                    const QueryFilter& filter, WallDistance* out) {
  const Vec3 c = center.pos;
  DiscFlood flood{c, max_radius * max_radius};
  bool found = false;
  PolyIndex wall_at{};
  uint32_t wall_edge = 0;
  float wall_t = 0;
  FloodDisc(ctx, filter, center, &flood, [&](uint32_t node) {
    const PolyIndex at = ctx.pool.node(node).at;
    const TileView& t = ctx.Tile(at.tile);
    const uint32_t n = t.corner_count(at.poly);
    for (uint32_t i = 0; i < n; ++i) {
      if (!IsWall(ctx, filter, t, at, i)) continue;
      const Vec3 a = t.corner(at.poly, i), b = t.corner(at.poly, i + 1 == n ? 0 : i + 1);
      const float s = ClosestParamXZ(a, b, c);
      const float d_sq = DistSqXZ(Lerp(a, b, s), c);
      // Ties keep the first wall met: the flood's order makes the answer deterministic.
      if (d_sq > flood.radius_sq || (found && d_sq == flood.radius_sq)) continue;
      // Closer walls are all that matter now: stop entering portals beyond this one.
      flood.radius_sq = d_sq;
      found = true;
      wall_at = at;
      wall_edge = i;
      wall_t = s;
    }
    return true;
  });
  out->status = QueryStatus::kComplete;
  out->center = center;
  out->node_limit = flood.node_limit;
  if (!found) {
    NoWallFound(c, max_radius, out);
    return;
  }
  out->found = true;
  const TileView& t = ctx.Tile(wall_at.tile);
  const uint32_t n = t.corner_count(wall_at.poly);
  const Vec3 a = t.corner(wall_at.poly, wall_edge);
  const Vec3 b = t.corner(wall_at.poly, wall_edge + 1 == n ? 0 : wall_edge + 1);
  Vec3 hit = Lerp(a, b, wall_t);
  hit.y = PolyHeightAt(t, wall_at.poly, hit.x, hit.z);
  out->distance = std::sqrt(flood.radius_sq);
  out->hit_point = hit;
  out->hit_normal = AwayFromWall(a, b, hit, c);
  out->wall_poly = ctx.Ref(wall_at);
}

}  // namespace waymesh::internal
