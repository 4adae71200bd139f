#pragma once
// Where a shortest path may bend: only at a vertex where the walkable surface (under the
// filter) spans more than a half turn round it, i.e. a reflex corner of the walls. Inner
// vertices and convex wall corners are never turning points, so the search opens no root
// there.

#include <cstdint>

#include "query_context.h"
#include "waymesh/core/query_filter.h"

namespace waymesh::internal::exact {

// Whether corner `corner` of polygon `poly` is a reflex wall corner: the polygons round it
// that the filter accepts, reached from `poly` across shared edges, do not close round it and
// their angles there sum to more than pi. Corrupt adjacency counts as a corner.
bool IsTurnCorner(const QueryContext& ctx, const QueryFilter& filter, PolyIndex poly,
                  uint32_t corner);

}  // namespace waymesh::internal::exact
