#include "line_of_sight.h"

#include "node_pool.h"
#include "raycast.h"

namespace waymesh::internal {

bool FindLineOfSightCorridor(QueryContext& ctx, const SurfacePoint& start, const SurfacePoint& goal,
                             const QueryFilter& filter) {
  return FindStraightCorridorAt(ctx, start, goal, filter, ctx.HeuristicScale(filter));
}

bool FindStraightCorridorAt(QueryContext& ctx, const SurfacePoint& start, const SurfacePoint& goal,
                            const QueryFilter& filter, float rate) {
  ctx.steps.clear();
  const RayWalkEnd walk = WalkRay(ctx, start, goal.pos, filter, [&](PolyIndex at, int edge) {
    // A dearer polygon on the way: a detour over cheaper ground might cost less.
    if (filter.Cost(ctx.AreaOf(at)) != rate) return false;
    ctx.steps.push_back({at, edge < 0 ? kViaStart : uint32_t(edge)});
    return true;
  });
  // Ending in another polygon than the goal's means another floor, or the goal sits on an
  // edge shared with it; the search sorts both out.
  return walk.kind == RayWalkEnd::kReachedEnd && walk.last == goal.poly.index();
}

}  // namespace waymesh::internal
