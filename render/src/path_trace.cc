#include "waymesh/render/path_trace.h"

#include "absl/strings/str_cat.h"
#include "waymesh/core/nav_query.h"

namespace waymesh::render {

absl::StatusOr<std::vector<TracedPath>> TracePaths(std::shared_ptr<const NavMap> map,
                                                   std::span<const PathQuery> queries,
                                                   Vec3 half_extents) {
  NavQuery query(map);
  PathOptions options;
  options.half_extents = half_extents;
  PathResult result;
  std::vector<TracedPath> paths;
  paths.reserve(queries.size());
  for (const PathQuery& q : queries) {
    QueryFilter filter(map->info());
    filter.set_include_flags(q.include_flags);
    filter.set_exclude_flags(q.exclude_flags);
    if (absl::Status s = query.FindPath(q.start, q.goal, filter, options, &result); !s.ok()) {
      return absl::Status(s.code(), q.line > 0 ? absl::StrCat("line ", q.line, ": ", s.message())
                                               : std::string(s.message()));
    }
    TracedPath path{q.start, q.goal, result.status, {}, result.length, q.line};
    for (const Waypoint& w : result.waypoints) path.waypoints.push_back(w.pos);
    paths.push_back(std::move(path));
  }
  return paths;
}

}  // namespace waymesh::render
