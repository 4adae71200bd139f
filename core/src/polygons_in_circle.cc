#include "polygons_in_circle.h"

#include "disc_flood.h"
#include "poly_geometry.h"

namespace waymesh::internal {

void PolygonsInCircleOffMesh(PolygonsInCircle* out) {
  out->status = QueryStatus::kStartOffMesh;
  out->polygons.clear();
  out->truncated = false;
}

void PolygonsInDisc(QueryContext& ctx, const SurfacePoint& center, float radius,
                    const QueryFilter& filter, uint32_t max_polygons, PolygonsInCircle* out) {
  PolygonsInCircleOffMesh(out);
  out->status = QueryStatus::kComplete;
  DiscFlood flood{center.pos, radius * radius};
  FloodDisc(ctx, filter, center, &flood, [&](uint32_t node) {
    if (out->polygons.size() == max_polygons) {
      // A polygon is left beyond the limit.
      out->truncated = true;
      return false;
    }
    const SearchNode& nd = ctx.pool.node(node);
    const TileView& t = ctx.Tile(nd.at.tile);
    PolygonInCircle& p = out->polygons.emplace_back();
    p.poly = ctx.Ref(nd.at);
    p.parent = nd.parent == kNoNode ? PolyRef() : ctx.Ref(ctx.pool.node(nd.parent).at);
    p.cost = nd.g;
    p.area = t.poly_area[nd.at.poly];
    p.centroid = PolyCentroid(t, nd.at.poly);
    return true;
  });
  if (flood.node_limit) out->truncated = true;
}

}  // namespace waymesh::internal
