// NavQuery::WallsAround: a breadth-first walk over the polygons reachable from the centre's
// polygon through open edges that come within the disc, collecting every other edge (wall or
// rejected neighbour) that comes within it. Walking by adjacency, never by a box search, keeps
// a bridge deck's walls apart from those of the road below it.

#include <cmath>

#include "absl/strings/str_format.h"
#include "poly_geometry.h"
#include "query_context.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {
namespace {

// Squared plan-view distance from p to segment ab.
float WallDistSq(Vec3 a, Vec3 b, Vec3 p) {
  return internal::DistSqXZ(Lerp(a, b, internal::ClosestParamXZ(a, b, p)), p);
}

}  // namespace

absl::Status NavQuery::WallsAround(const SurfacePoint& center, float radius,
                                   const QueryFilter& filter, std::vector<WallSegment>* out) {
  out->clear();
  if (absl::Status s = CheckRef(center.poly); !s.ok()) return s;
  if (!IsFinite(center.pos) || !std::isfinite(radius) || radius < 0) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "walls around (%g, %g, %g) within %g m: the centre must be finite and the radius finite "
        "and non-negative",
        center.pos.x, center.pos.y, center.pos.z, radius));
  }
  internal::QueryContext& ctx = *ctx_;
  internal::PinScope pins(ctx);
  const PolyIndex start = center.poly.index();
  if (!ctx.Exists(start) || !ctx.Passes(filter, start)) {
    return ctx.tile_load_failed ? absl::UnavailableError("the centre's tile cannot be loaded")
                                : absl::OkStatus();
  }
  const float radius_sq = radius * radius;
  ctx.pool.Reset();
  ctx.pool.Create(ctx.Global(start), start);
  // Nodes are created in breadth-first order, so the pool is the queue.
  for (uint32_t ci = 0; ci < ctx.pool.size(); ++ci) {
    const PolyIndex at = ctx.pool.node(ci).at;
    const TileView& t = ctx.Tile(at.tile);
    const uint32_t base = t.poly_start[at.poly];
    const uint32_t n = t.corner_count(at.poly);
    for (uint32_t i = 0; i < n; ++i) {
      const Vec3 a = t.corner(at.poly, i);
      const Vec3 b = t.corner(at.poly, i + 1 == n ? 0 : i + 1);
      if (WallDistSq(a, b, center.pos) > radius_sq) continue;
      const std::optional<PolyIndex> nb = t.across(base + i);
      if (!nb || !ctx.Exists(*nb) || !ctx.Passes(filter, *nb)) {
        out->push_back(WallSegment{a, b});
        continue;
      }
      const uint32_t global = ctx.Global(*nb);
      if (ctx.pool.Find(global) == internal::kNoNode) ctx.pool.Create(global, *nb);
    }
  }
  if (ctx.tile_load_failed) {
    return absl::UnavailableError(
        "a tile near the centre could not be loaded; the walls would be incomplete");
  }
  return absl::OkStatus();
}

}  // namespace waymesh
