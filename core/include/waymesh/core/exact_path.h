#pragma once
// Exact mode of FindPath (PathOptions::mode = PathMode::kExact): the shortest path in plan view
// (X-Z) over the polygons the filter accepts, found by searching intervals of polygon edges seen
// from a root point (Polyanya: Cui, Harabor, Grastien, IJCAI 2017) instead of whole polygons.
//
// Guarantee: a kComplete answer's waypoints form a shortest plan-view path from the start to
// the goal that stays on the accepted polygons (up to the search's float tolerances, about
// 1e-9 of the path's extent); its turns are wall corners. It follows adjacency only, so
// bridges and stacked floors work; waypoint heights are the surface's.
//
// Refused (INVALID_ARGUMENT, with the reason): a filter whose allowed areas have different
// costs per metre. The cheapest path is then the weighted-region problem, for which no exact
// practical algorithm is known (paths refract at area borders like light, and the optimum is
// not made of straight runs between corners), so "exact" could not be kept. Carved maps
// (obstacle layer versions) are searched like any other.
//
// Off-mesh links the filter allows are edges of their own cost (as in approximate mode, in
// metres of walking at the one cost): the answer is then the cheapest sequence of straight
// runs over the surface and links, and its turns are wall corners or link ends.

#include <cstdint>

#include "absl/status/status.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/query_filter.h"

namespace waymesh {

// Interval nodes an exact search may create when PathOptions::max_nodes is 0 (about 20 MB of
// search state at most; a corner-to-corner crossing of a 35k-triangle map needs under 70k).
inline constexpr uint32_t kExactDefaultMaxNodes = 1u << 18;

// OK when exact mode can answer queries on `map` under `filter`; otherwise the error an exact
// FindPath returns, saying why.
absl::Status CheckExactPathSupport(const NavMap& map, const QueryFilter& filter);

// The map's default filter (QueryFilter(map.info())) made exact-ready: every area at cost 1,
// so CheckExactPathSupport accepts it on any map. The same areas stay allowed, off-mesh
// links' included (exact mode takes links at that one cost per metre).
QueryFilter ExactReadyFilter(const NavMap& map);

}  // namespace waymesh
