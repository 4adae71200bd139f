#include "vs_detour/waymesh_runner.h"

#include <utility>

namespace waymesh::bench {

WaymeshRunner::WaymeshRunner(std::shared_ptr<const NavMap> map, Vec3 half_extents,
                             uint32_t max_nodes)
    : query_(std::move(map), NavQueryOptions{max_nodes}) {
  options_.half_extents = half_extents;
  exact_options_ = options_;
  exact_options_.mode = PathMode::kExact;
}

PathOutcome RunPath(NavQuery& query, Vec3 start, Vec3 goal, const QueryFilter& filter,
                    const PathOptions& options, PathResult* result) {
  if (!query.FindPath(start, goal, filter, options, result).ok()) return {};
  if (result->status != QueryStatus::kComplete && result->status != QueryStatus::kPartial) {
    return {};
  }
  return {result->status == QueryStatus::kComplete, result->length, result->nodes_expanded};
}

PathOutcome WaymeshRunner::FindPath(Vec3 start, Vec3 goal) {
  return RunPath(query_, start, goal, filter_, options_, &path_);
}

PathOutcome WaymeshRunner::FindExactPath(Vec3 start, Vec3 goal) {
  return RunPath(query_, start, goal, filter_, exact_options_, &path_);
}

bool WaymeshRunner::Nearest(Vec3 pos) {
  const absl::StatusOr<std::optional<SurfacePoint>> p =
      query_.NearestPoint(pos, options_.half_extents, filter_);
  return p.ok() && p->has_value();
}

void WaymeshRunner::PrepareRays(const std::vector<QueryCase>& queries) {
  ray_starts_.clear();
  for (const QueryCase& q : queries) {
    const absl::StatusOr<std::optional<SurfacePoint>> p =
        query_.NearestPoint(q.start, options_.half_extents, filter_);
    ray_starts_.push_back(p.ok() ? *p : std::nullopt);
  }
}

float WaymeshRunner::Raycast(size_t i, Vec3 goal) {
  if (!ray_starts_[i]) return -1;
  if (!query_.Raycast(*ray_starts_[i], goal, filter_, &ray_).ok()) return -1;
  return ray_.t;
}

}  // namespace waymesh::bench
