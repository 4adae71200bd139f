#include "raycast.h"

#include <algorithm>
#include <cmath>

#include "poly_geometry.h"
#include "vertex_fan.h"
#include "waymesh/core/tolerances.h"

namespace waymesh::internal {

namespace {

// Which side of the ray's line (start + s * d) corner v lies on: > 0 left, < 0 right, 0 on it.
// RayExit, CornerOnRay and HoldsDirection must agree exactly on 0, so all use this.
float SideOfRay(Vec3 v, Vec3 start, Vec3 d) {
  return d.x * (v.z - start.z) - d.z * (v.x - start.x);
}

// RayExit over every edge's half-plane: the smallest exit parameter of the edges the ray heads
// out through. Also right for a line that misses the polygon by rounding.
float ExitByHalfPlanes(const TileView& tile, uint32_t poly, Vec3 start, Vec3 d, int* edge) {
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

// The corner of edge `edge` of `poly` that the ray's line runs exactly through, or -1.
int CornerOnRay(const TileView& tile, uint32_t poly, int edge, Vec3 start, Vec3 d) {
  if (edge < 0) return -1;
  const uint32_t n = tile.corner_count(poly);
  auto on_line = [&](uint32_t corner) {
    return SideOfRay(tile.corner(poly, corner), start, d) == 0.0f;
  };
  const uint32_t e = uint32_t(edge);
  if (on_line((e + 1) % n)) return int((e + 1) % n);
  if (on_line(e)) return int(e);
  return -1;
}

}  // namespace

PolyExit RayExit(const TileView& tile, uint32_t poly, Vec3 start, Vec3 d) {
  // The ray's line splits a convex polygon's corners into a run on its right and a run on its
  // left; the ray leaves through the one edge that goes from the right run to the left one.
  // Finding it costs a cross product per corner and one division; the crossing point lies on
  // that edge's segment, so collinear edges (kept T-junction points) need no tie-break. A line
  // through a corner (side 0, common on integer coordinates) leaves by the edge arriving at
  // it, and WalkRay goes round the corner (PivotAtCorner).
  const uint32_t n = tile.corner_count(poly);
  const uint32_t* corners = tile.poly_verts.data() + tile.poly_start[poly];
  Vec3 a = tile.vertices[corners[n - 1]];
  float side_a = SideOfRay(a, start, d);
  for (uint32_t i = 0; i < n; ++i) {
    const Vec3 b = tile.vertices[corners[i]];
    const float side_b = SideOfRay(b, start, d);
    if (side_a < 0 && side_b >= 0) {
      // Corner a is strictly right of the line, so only b can be on it.
      return {TriArea2XZ(a, b, start) / (side_b - side_a), int(i == 0 ? n - 1 : i - 1),
              side_b == 0.0f ? int(i) : -1};
    }
    a = b;
    side_a = side_b;
  }
  PolyExit exit;
  exit.s = ExitByHalfPlanes(tile, poly, start, d, &exit.edge);
  exit.corner = CornerOnRay(tile, poly, exit.edge, start, d);
  return exit;
}

namespace {

// Whether direction d from corner c of the polygon points into it (or along one of its edges):
// between the edge leaving the corner and the edge arriving at it, turning counter-clockwise.
bool HoldsDirection(const TileView& tile, uint32_t poly, uint32_t c, Vec3 d) {
  const uint32_t n = tile.corner_count(poly);
  const Vec3 v = tile.corner(poly, c);
  const Vec3 next = tile.corner(poly, (c + 1) % n);
  const Vec3 prev = tile.corner(poly, (c + n - 1) % n);
  // Seen along a ray from the corner: the next corner on its right (or on it), the previous
  // on its left (or on it).
  return SideOfRay(next, v, d) <= 0 && SideOfRay(prev, v, d) >= 0;
}

}  // namespace

CornerPivot PivotAtCorner(const QueryContext& ctx, const QueryFilter& filter, PolyIndex from,
                          uint32_t corner, Vec3 d) {
  const Vec3 v = ctx.Tile(from.tile).corner(from.poly, corner);
  for (const FanTurn turn : {FanTurn::kLeaving, FanTurn::kArriving}) {
    CornerPivot pivot;
    FanPoly p{from, corner};
    while (pivot.count < CornerPivot::kMaxSteps) {
      const std::optional<FanPoly> next = StepRoundVertex(ctx, filter, p, v, turn);
      if (!next || next->at == from) break;  // a wall, or all the way round
      p = *next;
      pivot.steps[pivot.count++] = {p.at, int(p.entered_by)};
      if (HoldsDirection(ctx.Tile(p.at.tile), p.at.poly, p.corner, d)) return pivot;
    }
  }
  return CornerPivot{};
}

void RaycastAlongSurface(const QueryContext& ctx, const SurfacePoint& start, Vec3 end,
                         const QueryFilter& filter, RaycastResult* out) {
  out->status = QueryStatus::kComplete;
  out->polys.clear();
  out->hit = false;
  out->t = 1.0f;
  out->normal = {};
  const RayWalkEnd walk = WalkRay(ctx, start, end, filter, [&](PolyIndex at, int) {
    out->polys.push_back(ctx.Ref(at));
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
