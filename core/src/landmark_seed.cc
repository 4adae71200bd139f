#include "landmark_seed.h"

namespace waymesh::internal {

SurfacePoint PointIn(const QueryContext& ctx, uint32_t global) {
  const auto [tile, poly] = SplitGlobal(ctx, global);
  const TileView& t = ctx.Tile(tile);
  const DetailTri d = t.detail(poly)[0];
  const Vec3 c = (t.corner(poly, d.a) + t.corner(poly, d.b) + t.corner(poly, d.c)) * (1.0f / 3);
  return SurfacePoint{ctx.Ref({tile, poly}), c};
}

uint32_t SeedPolygon(const QueryContext& ctx) {
  const auto& islands = ctx.map->info().islands;
  uint32_t best_island = 0;
  for (uint32_t i = 1; i < islands.size(); ++i) {
    if (islands[i].area > islands[best_island].area) best_island = i;
  }
  for (const TileView& t : ctx.map->tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      if (t.poly_island[p] == best_island) return ctx.Global({t.index, p});
    }
  }
  return 0;
}

}  // namespace waymesh::internal
