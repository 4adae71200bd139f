#pragma once
// Runs the comparison's queries through Waymesh's NavQuery (default QueryFilter: every area at
// cost 1, like Detour's default filter), reusing one result object per query kind.

#include <memory>
#include <optional>
#include <vector>

#include "vs_detour/path_outcome.h"
#include "vs_detour/query_set.h"
#include "waymesh/core/nav_query.h"

namespace waymesh::bench {

class WaymeshRunner {
 public:
  // `half_extents` is the nearest-polygon box; `max_nodes` the A* node pool.
  WaymeshRunner(std::shared_ptr<const NavMap> map, Vec3 half_extents, uint32_t max_nodes);

  // FindPath from positions: snaps both ends, A*, string pulling.
  PathOutcome FindPath(Vec3 start, Vec3 goal);
  // FindPath in exact mode (waymesh/core/exact_path.h) under the same filter: one cost for
  // every area, off-mesh links included, which exact mode takes on any uncarved map.
  PathOutcome FindExactPath(Vec3 start, Vec3 goal);
  // FindNearest alone; true when a polygon was found.
  bool Nearest(Vec3 pos);
  // Puts each query's start on the mesh once, so Raycast measures the ray alone.
  void PrepareRays(const std::vector<QueryCase>& queries);
  // Raycast from query `i`'s snapped start towards `goal`; the reached fraction (1 = no hit,
  // negative when the start is off the mesh).
  float Raycast(size_t i, Vec3 goal);

  NavQuery& query() { return query_; }

 private:
  NavQuery query_;
  QueryFilter filter_;
  PathOptions options_;
  PathOptions exact_options_;
  PathResult path_;
  RaycastResult ray_;
  std::vector<std::optional<SurfacePoint>> ray_starts_;
};

// Runs one FindPath of `query` and keeps what the comparison needs.
PathOutcome RunPath(NavQuery& query, Vec3 start, Vec3 goal, const QueryFilter& filter,
                    const PathOptions& options, PathResult* result);

}  // namespace waymesh::bench
