#pragma once
// Steps the interval search (exact_search.h) and the sight flood (sight_flood.h) share: the
// polygons a point lies on, where an interval's entry edge starts in the polygon it leads
// into, whether turning at an interval end opens anything, and turn-corner verdicts through
// the per-thread memo.

#include <cstdint>
#include <vector>

#include "exact/corner_cache.h"
#include "exact/interval_geometry.h"
#include "query_context.h"
#include "waymesh/core/query_filter.h"

namespace waymesh::internal::exact {

// The polygons the filter accepts that hold `pos` (within tol::kInsidePolygon), reached from
// `poly` across the edges it lies on: a point on an edge or a vertex is in all of them.
void TouchingPolygons(const QueryContext& ctx, const QueryFilter& filter, PolyIndex poly, Vec3 pos,
                      std::vector<PolyIndex>* out);

// The entry edge's corner A from the first corner at its position (`found`): the last of the
// copies when carving left that corner doubled, since the zero-length side between the copies
// is a wall, never the edge an interval crossed.
uint32_t EntryCorner(const TileView& t, uint32_t p, int found);

// Whether polygon `p` (n corners) extends past the ray from r through its corner `end` on the
// side a turn there would see: corner `next` (beside `end`; `step` +1 past corner B, -1 past
// A) lies there. A corner carving left on `end` or a few µm behind it on that ray (a doubled
// corner, or a fold where a footprint corner was rounded differently on two sides of a tile
// seam) decides nothing: the corner after it does.
bool OpensPast(Point2 r, Point2 end, const TileView& t, uint32_t p, uint32_t n, uint32_t next,
               int step);

// IsTurnCorner (turn_corner.h), remembered in `memo` while the map and the filter stay the
// same (corner_cache.h).
bool MemoTurnCorner(const QueryContext& ctx, const QueryFilter& filter, CornerCache* memo,
                    PolyIndex poly, uint32_t corner);

}  // namespace waymesh::internal::exact
