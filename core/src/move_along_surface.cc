#include "move_along_surface.h"

#include <algorithm>
#include <cmath>

#include "poly_geometry.h"

namespace waymesh::internal {
namespace {

// Slack on the search disc so edges through the segment's end points are not missed (m).
constexpr float kDiscSlack = 1e-3f;

// Squared plan-view distance from p to segment ab.
float SegmentDistSq(Vec3 a, Vec3 b, Vec3 p) {
  return DistSqXZ(Lerp(a, b, ClosestParamXZ(a, b, p)), p);
}

// The parameter range [*t0, *t1] of segment ab inside the disc (c, r) in plan view; false when
// the segment misses the disc.
bool ClipToDisc(Vec3 a, Vec3 b, Vec3 c, float r, float* t0, float* t1) {
  const double dx = double(b.x) - a.x, dz = double(b.z) - a.z;
  const double fx = double(a.x) - c.x, fz = double(a.z) - c.z;
  const double qa = dx * dx + dz * dz, qb = 2 * (fx * dx + fz * dz);
  const double qc = fx * fx + fz * fz - double(r) * r;
  if (qa <= 0) {
    *t0 = *t1 = 0;
    return qc <= 0;
  }
  const double disc = qb * qb - 4 * qa * qc;
  if (disc < 0) return false;
  const double root = std::sqrt(disc);
  const double lo = std::max((-qb - root) / (2 * qa), 0.0);
  const double hi = std::min((-qb + root) / (2 * qa), 1.0);
  if (lo > hi) return false;
  *t0 = float(lo);
  *t1 = float(hi);
  return true;
}

// The answer when `end` lies in the start polygon (what the search below finds at its first
// node): most moves of a crowd tick are a few centimetres inside one polygon, and this skips
// the node pool's scattered writes for them.
bool EndsInStartPolygon(const QueryContext& ctx, const SurfacePoint& start, Vec3 end,
                        MoveResult* out) {
  const PolyIndex at = start.poly.index();
  const TileView& t = ctx.Tile(at.tile);
  if (!PointInPolyXZ(t, at.poly, end, 0.0f)) return false;
  out->poly = ctx.Ref(at);
  out->pos = {end.x, PolyHeightAt(t, at.poly, end.x, end.z), end.z};
  out->blocked = false;
  out->visited.push_back(out->poly);
  return true;
}

}  // namespace

void MoveAlongSurfaceImpl(QueryContext& ctx, const SurfacePoint& start, Vec3 end,
                          const QueryFilter& filter, MoveResult* out) {
  out->visited.clear();
  out->status = QueryStatus::kComplete;
  if (EndsInStartPolygon(ctx, start, end, out)) return;
  ctx.pool.Reset();
  const Vec3 s = start.pos;
  const Vec3 center{(s.x + end.x) * 0.5f, 0.0f, (s.z + end.z) * 0.5f};
  const float radius = std::sqrt(DistSqXZ(s, end)) * 0.5f + kDiscSlack;
  const float radius_sq = radius * radius;

  const PolyIndex start_at = start.poly.index();
  uint32_t root = ctx.pool.Create(ctx.Global(start_at), start_at);
  uint32_t best_node = root;
  Vec3 best = s;
  float best_sq = INFINITY;
  // Breadth-first over the polygons reachable inside the disc; nodes are created in BFS order.
  for (uint32_t ci = 0; ci < ctx.pool.size(); ++ci) {
    const SearchNode cur = ctx.pool.node(ci);
    const TileView& t = ctx.Tile(cur.at.tile);
    // Node 0 is the start polygon, tested above.
    if (ci != 0 && PointInPolyXZ(t, cur.at.poly, end, 0.0f)) {
      best_node = ci;
      best = end;
      best_sq = 0;
      break;
    }
    const uint32_t base = t.poly_start[cur.at.poly];
    const uint32_t n = t.corner_count(cur.at.poly);
    for (uint32_t i = 0; i < n; ++i) {
      const Vec3 a = t.corner(cur.at.poly, i);
      const Vec3 b = t.corner(cur.at.poly, i + 1 == n ? 0 : i + 1);
      const std::optional<PolyIndex> nb = t.across(base + i);
      const bool open = nb && ctx.Exists(*nb) && ctx.Passes(filter, *nb);
      if (!open) {
        // A wall: its point closest to the target inside the disc is a candidate resting place.
        float t0, t1;
        if (!ClipToDisc(a, b, center, radius, &t0, &t1)) continue;
        const Vec3 q = Lerp(a, b, std::clamp(ClosestParamXZ(a, b, end), t0, t1));
        const float d = DistSqXZ(q, end);
        if (d < best_sq) {
          best_sq = d;
          best = q;
          best_node = ci;
        }
        continue;
      }
      if (SegmentDistSq(a, b, center) > radius_sq) continue;
      const uint32_t global = ctx.Global(*nb);
      if (ctx.pool.Find(global) != kNoNode) continue;
      const uint32_t ni = ctx.pool.Create(global, *nb);
      if (ni == kNoNode) {
        out->status = QueryStatus::kPartial;
        continue;
      }
      ctx.pool.node(ni).parent = ci;
    }
  }
  const SearchNode& last = ctx.pool.node(best_node);
  const TileView& lt = ctx.Tile(last.at.tile);
  out->poly = ctx.Ref(last.at);
  out->pos = {best.x, PolyHeightAt(lt, last.at.poly, best.x, best.z), best.z};
  out->blocked = best_sq > 0;
  for (uint32_t i = best_node; i != kNoNode; i = ctx.pool.node(i).parent) {
    out->visited.push_back(ctx.Ref(ctx.pool.node(i).at));
  }
  std::reverse(out->visited.begin(), out->visited.end());
}

}  // namespace waymesh::internal
