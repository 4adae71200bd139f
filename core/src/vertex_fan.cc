#include "vertex_fan.h"

#include "poly_geometry.h"

namespace waymesh::internal {

std::optional<FanPoly> StepRoundVertex(const QueryContext& ctx, const QueryFilter& filter,
                                       const FanPoly& p, Vec3 v, FanTurn turn) {
  const TileView& t = ctx.Tile(p.at.tile);
  const uint32_t n = t.corner_count(p.at.poly);
  const uint32_t edge = turn == FanTurn::kLeaving ? p.corner : (p.corner + n - 1) % n;
  const std::optional<PolyIndex> nb = t.across(t.poly_start[p.at.poly] + edge);
  if (!nb || !ctx.Exists(*nb) || !ctx.Passes(filter, *nb)) {
    return std::nullopt;
  }
  const int c = FindCorner(ctx.Tile(nb->tile), nb->poly, v);
  if (c < 0) return std::nullopt;
  return FanPoly{*nb, uint32_t(c), edge};
}

}  // namespace waymesh::internal
