#include "disc_flood.h"

#include "poly_geometry.h"

namespace waymesh::internal {

Vec3 FloodEntryPoint(const QueryContext& ctx, const SearchNode& node, Vec3 center) {
  if (node.parent == kNoNode) return center;
  const SearchNode& parent = ctx.pool.node(node.parent);
  const TileView& t = ctx.Tile(parent.at.tile);
  const uint32_t n = t.corner_count(parent.at.poly);
  const Vec3 a = t.corner(parent.at.poly, node.via);
  const Vec3 b = t.corner(parent.at.poly, node.via + 1 == n ? 0 : node.via + 1);
  return Lerp(a, b, 0.5f);
}

void FloodDisc(QueryContext& ctx, const QueryFilter& filter, const SurfacePoint& center,
               DiscFlood* flood, absl::FunctionRef<bool(uint32_t node)> visit) {
  ctx.pool.Reset();
  ctx.heap.Clear();
  const Vec3 c = center.pos;
  const PolyIndex start = center.poly.index();
  const uint32_t first = ctx.pool.Create(ctx.Global(start), start);
  if (first == kNoNode) {
    flood->node_limit = true;
    return;
  }
  ctx.pool.node(first).state = kNodeOpen;
  ctx.heap.Push(first, 0.0f);
  while (!ctx.heap.Empty()) {
    const uint32_t ci = ctx.heap.Pop().node;
    SearchNode& cur = ctx.pool.node(ci);
    if (cur.state == kNodeClosed) continue;  // an entry left behind by a cheaper push
    cur.state = kNodeClosed;
    if (!visit(ci)) return;
    const TileView& t = ctx.Tile(cur.at.tile);
    const Vec3 from = FloodEntryPoint(ctx, cur, c);
    const float area_cost = filter.Cost(t.poly_area[cur.at.poly]);
    const uint32_t base = t.poly_start[cur.at.poly], n = t.corner_count(cur.at.poly);
    for (uint32_t i = 0; i < n; ++i) {
      const std::optional<PolyIndex> nb = t.across(base + i);
      if (!nb || !ctx.Exists(*nb) || !ctx.Passes(filter, *nb)) continue;
      const Vec3 a = t.corner(cur.at.poly, i), b = t.corner(cur.at.poly, i + 1 == n ? 0 : i + 1);
      if (DistSqXZ(Lerp(a, b, ClosestParamXZ(a, b, c)), c) > flood->radius_sq) continue;
      const uint32_t global = ctx.Global(*nb);
      uint32_t ni = ctx.pool.Find(global);
      if (ni != kNoNode && ctx.pool.node(ni).state == kNodeClosed) continue;
      const float g = cur.g + Distance(from, Lerp(a, b, 0.5f)) * area_cost;
      if (ni == kNoNode) {
        ni = ctx.pool.Create(global, *nb);
        if (ni == kNoNode) {
          flood->node_limit = true;
          continue;
        }
      } else if (g >= ctx.pool.node(ni).g) {
        continue;
      }
      SearchNode& next = ctx.pool.node(ni);
      next.g = g;
      next.parent = ci;
      next.via = i;
      next.state = kNodeOpen;
      ctx.heap.Push(ni, g);
    }
  }
}

}  // namespace waymesh::internal
