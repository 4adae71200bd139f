#include "crowd/surface_move.h"

#include <span>

#include "crowd/wall_cache.h"

namespace waymesh::crowd::internal {
namespace {

// Moves shorter than this (metres) are not walked.
constexpr float kNoWalk = 1e-6f;

// `at` walked to `to` along the surface; `at` itself when that fails.
SurfacePoint Walk(NavQuery& query, const SurfacePoint& at, V2 to, const QueryFilter& filter,
                  MoveResult* scratch) {
  if (LengthSq2(to - XZ(at.pos)) <= kNoWalk * kNoWalk) return at;
  const absl::Status s = query.MoveAlongSurface(at, Lift(to, at.pos.y), filter, scratch);
  if (!s.ok() || scratch->status == QueryStatus::kStartOffMesh) return at;
  return SurfacePoint{scratch->poly, scratch->pos};
}

}  // namespace

SurfacePoint SlideTo(NavQuery& query, const Agent& agent, V2 target, MoveResult* scratch) {
  const SurfacePoint moved = Walk(query, agent.at, target, agent.params.filter, scratch);
  const V2 clear = PushOutOfWalls(XZ(moved.pos), agent.params.radius,
                                  std::span<const WallXZ>(agent.walls.data(), agent.wall_count));
  return Walk(query, moved, clear, agent.params.filter, scratch);
}

}  // namespace waymesh::crowd::internal
