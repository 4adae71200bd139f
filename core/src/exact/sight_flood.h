#pragma once
// What one point sees: the turn corners at which a shortest path from it may make its first
// turn, for the corner graph (corner_graph.h) and the hub-label query over it.
//
// The interval search seeded at a point, with every interval keeping the seed as its root,
// covers what the point sees, but it cuts a cone at every polygon vertex inside it and never
// joins the pieces again: on ground of many small polygons seen from afar, ~30 intervals per
// polygon entered. The flood instead gathers the parts of a polygon's edges that the seed sees
// before it looks through the polygon (nearest pending part first), joins the abutting ones,
// and never looks through a part of an edge twice: one seed sees each point along one ray, so
// the parts of one polygon from several neighbours are one cone again.

#include <cstdint>
#include <vector>

#include "exact/turn_corner_index.h"
#include "query_context.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal::exact {

// A turn corner seen from a point, and its plan-view distance from there.
struct SeenCorner {
  uint32_t corner = kNone;  // id in the TurnCornerIndex
  double distance = 0;
};

// The corners of `index` at which a shortest path from `from` may make its first turn: those
// it sees where the surface extends past the line of sight (Polyanya's turn rule). Writes them
// to `out` once each, in id order; returns whether `target` (may be null) is seen straight
// from `from`. `index` must be built under `filter`. Off-mesh links are never taken: the
// corner graph and hub labels over it serve filters that allow none. Reuses ctx.exact
// (ctx.exact.sight afterwards tells how many polygons and pieces the flood entered).
bool VisibleCorners(QueryContext& ctx, const SurfacePoint& from, const QueryFilter& filter,
                    const TurnCornerIndex& index, const SurfacePoint* target,
                    std::vector<SeenCorner>* out);

}  // namespace waymesh::internal::exact
