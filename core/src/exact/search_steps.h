#pragma once
// Steps the interval search (exact_search.h) and the sight flood (sight_flood.h) share: the
// polygons a point lies on, where an interval's entry edge starts in the polygon it leads
// into, whether turning at an interval end opens anything, and turn-corner verdicts through
// the per-thread memo. The two run per node, so they are inline.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "exact/corner_cache.h"
#include "exact/interval_geometry.h"
#include "query_context.h"
#include "waymesh/core/query_filter.h"

namespace waymesh::internal::exact {

// A corner this close (m) to the ray from a root through an interval end, behind that end,
// lies on the ray (carving rounds corners by a few µm).
inline constexpr double kFoldWidth = 1e-5;

// Whether `p` is among `polys`.
inline bool Holds(const std::vector<PolyIndex>& polys, PolyIndex p) {
  return std::find(polys.begin(), polys.end(), p) != polys.end();
}

// The polygons the filter accepts that hold `pos` (within tol::kInsidePolygon), reached from
// `poly` across the edges it lies on: a point on an edge or a vertex is in all of them.
void TouchingPolygons(const QueryContext& ctx, const QueryFilter& filter, PolyIndex poly, Vec3 pos,
                      std::vector<PolyIndex>* out);

// The entry edge's corner A from the first corner at its position (`found`): the last of the
// copies when carving left that corner doubled, since the zero-length side between the copies
// is a wall, never the edge an interval crossed.
inline uint32_t EntryCorner(const TileView& t, uint32_t p, int found) {
  const uint32_t n = t.corner_count(p);
  uint32_t j = uint32_t(found);
  for (uint32_t k = 1; k < n && t.corner(p, (j + 1) % n) == t.corner(p, j); ++k) j = (j + 1) % n;
  return j;
}

// Whether polygon `p` (n corners) extends past the ray from r through its corner `end` on the
// side a turn there would see: corner `next` (beside `end`; `step` +1 past corner B, -1 past
// A) lies there. A corner carving left on `end` or a few µm behind it on that ray (a doubled
// corner, or a fold where a footprint corner was rounded differently on two sides of a tile
// seam) decides nothing: the corner after it does.
inline bool OpensPast(Point2 r, Point2 end, const TileView& t, uint32_t p, uint32_t n,
                      uint32_t next, int step) {
  const double reach = Dist(r, end);
  for (uint32_t k = 0; k + 2 < n; ++k, next = (next + n + step) % n) {
    const Point2 c = ToPoint2(t.corner(p, next));
    const double side = step * Orient(r, end, c);
    // At `end` itself (a corner carving doubled) counts as behind it.
    const bool behind = (c.x - end.x) * (end.x - r.x) + (c.z - end.z) * (end.z - r.z) <= 0;
    if (!behind || std::abs(side) > kFoldWidth * reach) return side < 0;
  }
  return false;
}

// IsTurnCorner (turn_corner.h), remembered in `memo` while the map and the filter stay the
// same (corner_cache.h).
bool MemoTurnCorner(const QueryContext& ctx, const QueryFilter& filter, CornerCache* memo,
                    PolyIndex poly, uint32_t corner);

}  // namespace waymesh::internal::exact
