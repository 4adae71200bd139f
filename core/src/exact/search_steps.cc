#include "exact/search_steps.h"

#include <algorithm>
#include <cmath>

#include "exact/turn_corner.h"
#include "poly_geometry.h"
#include "waymesh/core/tolerances.h"

namespace waymesh::internal::exact {
namespace {

// Most polygons one point can lie on (a vertex where many polygons meet).
constexpr size_t kMaxTouching = 32;

}  // namespace

void TouchingPolygons(const QueryContext& ctx, const QueryFilter& filter, PolyIndex poly, Vec3 pos,
                      std::vector<PolyIndex>* out) {
  out->assign(1, poly);
  const Point2 at = ToPoint2(pos);
  for (size_t k = 0; k < out->size() && out->size() < kMaxTouching; ++k) {
    const PolyIndex cur = (*out)[k];
    const TileView& t = ctx.Tile(cur.tile);
    const uint32_t s = t.poly_start[cur.poly], n = t.corner_count(cur.poly);
    for (uint32_t i = 0; i < n; ++i) {
      const Point2 u = ToPoint2(t.corner(cur.poly, i)),
                   v = ToPoint2(t.corner(cur.poly, (i + 1) % n));
      if (Dist(at, ClosestOnSegment(u, v, at)) > tol::kInsidePolygon) continue;
      const std::optional<PolyIndex> nb = t.across(s + i);
      if (!nb || !ctx.Exists(*nb) || !ctx.Passes(filter, *nb) || Holds(*out, *nb)) continue;
      if (PointInPolyXZ(ctx.Tile(nb->tile), nb->poly, pos, tol::kInsidePolygon)) {
        out->push_back(*nb);
      }
    }
  }
}

bool MemoTurnCorner(const QueryContext& ctx, const QueryFilter& filter, CornerCache* memo,
                    PolyIndex poly, uint32_t corner) {
  const TileView& t = ctx.Tile(poly.tile);
  const uint32_t slot = t.poly_start[poly.poly] + corner;
  if (const std::optional<bool> known = memo->Find(poly.tile, slot)) return *known;
  const bool turn = IsTurnCorner(ctx, filter, poly, corner);
  // A tile that failed to load counted as a wall: the verdict may change once it loads.
  if (!ctx.tile_load_failed) memo->Store(poly.tile, slot, t.poly_verts.size(), turn);
  return turn;
}

}  // namespace waymesh::internal::exact
