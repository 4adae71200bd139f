#pragma once
// Paths to draw: each query of a query file (or --path) run through NavQuery::FindPath.

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/query_status.h"
#include "waymesh/core/vec3.h"
#include "waymesh/query_files/path_queries.h"

namespace waymesh::render {

// One query and the path FindPath found for it.
struct TracedPath {
  Vec3 start, goal;  // as asked
  QueryStatus status = QueryStatus::kNoPath;
  std::vector<Vec3> waypoints;  // empty unless the path reached somewhere
  double length = 0;            // metres
  int line = 0;                 // line in the query file, 0 for --path
};

// Runs every query on `map` (never null) with the map's area costs and the query's flags;
// `half_extents` puts start and goal on the mesh. Errors only for bad arguments.
absl::StatusOr<std::vector<TracedPath>> TracePaths(std::shared_ptr<const NavMap> map,
                                                   std::span<const PathQuery> queries,
                                                   Vec3 half_extents);

}  // namespace waymesh::render
