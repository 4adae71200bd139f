#pragma once
// A* over polygons whose nodes carry a funnel: the apex the path last bent at, the cone of
// directions still open through the portals crossed since, and the cost so far. A node's cost
// is the taut path through its own corridor, not a sum over edge midpoints, so the search
// compares routes by (almost) their true lengths. One node per polygon keeps memory and time
// like plain A*. The heuristic is the larger of the straight distance to the goal, scaled by the
// cheapest cost the filter allows, and the map's landmark bound (landmark_table.h), scaled by
// the filter's costs relative to the table's, so that area costs below 1 do not make it
// overestimate.

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "query_context.h"
#include "waymesh/core/landmark_table.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/query_interrupt.h"
#include "waymesh/core/query_status.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal {

// Where a search may go: everywhere (cluster_of null), or only the tiles t with
// (*cluster_of)[t] == cluster.
struct SearchArea {
  const std::vector<uint32_t>* cluster_of = nullptr;
  uint32_t cluster = 0;
};

struct SearchOutcome {
  QueryStatus status;      // kComplete (goal reached) or kPartial
  uint32_t expanded;       // nodes popped from the open list
  absl::Status stop;       // non-OK when an interrupt stopped the search (no corridor then)
  bool limit_hit = false;  // kPartial because of max_nodes, not because the goal is unreachable
};

// Searches from `start` to `goal` (both on polygons the filter accepts) creating at most
// `max_nodes` nodes, and leaves the corridor in ctx.steps: the start polygon first, then the
// goal polygon, or for kPartial the reached polygon closest to the goal. `interrupt` (may be
// null) is polled every kInterruptPollNodes expansions; when it says stop, so does the search.
// `area` may keep the search inside one cluster of tiles (the refinement of a hierarchical
// search, hierarchy/hierarchical_search.h).
SearchOutcome SearchCorridor(QueryContext& ctx, const SurfacePoint& start, const SurfacePoint& goal,
                             const QueryFilter& filter, uint32_t max_nodes,
                             QueryInterrupt* interrupt = nullptr, const SearchArea& area = {});

// The landmark bound (landmark_table.h) of the cost to `goal` under `filter` that a search
// from `start` uses; none when the query searches without landmarks.
LandmarkTable::GoalBound GoalBoundFor(QueryContext& ctx, const SurfacePoint& start,
                                      const SurfacePoint& goal, const QueryFilter& filter);

// Walking distance from `from` to the nearest point of every polygon it reaches under
// `filter` (a full Dijkstra over funnel states, so close to the true geodesic distance);
// (*dist)[global] = INFINITY for polygons not reached. Uses ctx's node pool, whose capacity
// should be the map's polygon count.
void FloodDistances(QueryContext& ctx, const SurfacePoint& from, const QueryFilter& filter,
                    std::vector<float>* dist);

// Costs from `from` (on a polygon of a tile t with cluster_of[t] == cluster) to each of
// `targets` (points on polygons of that cluster), walking only on polygons of the cluster's
// tiles that `filter` accepts, in the funnel cost model of SearchCorridor; INFINITY for a
// target not reached. (*costs)[i] is targets[i]'s. Returns the nodes expanded.
uint32_t FloodWithinCluster(QueryContext& ctx, const SurfacePoint& from,
                            const std::vector<uint32_t>& cluster_of, uint32_t cluster,
                            const QueryFilter& filter, std::span<const SurfacePoint> targets,
                            std::vector<float>* costs);

// The corridor the last FloodWithinCluster walked from its start to polygon `target` (start
// first; the steps whose cost it measured), or empty when it did not reach `target`.
void FloodCorridorTo(const QueryContext& ctx, PolyIndex target, std::vector<CorridorStep>* out);

}  // namespace waymesh::internal
