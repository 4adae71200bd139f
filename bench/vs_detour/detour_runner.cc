#include "vs_detour/detour_runner.h"

#include <DetourNode.h>

#include <cmath>

#include "absl/strings/str_cat.h"

namespace waymesh::bench {
namespace {

// Corridor and waypoint buffers: longer than any path on the benchmark maps.
constexpr int kMaxPathPolys = 1 << 16;
constexpr int kMaxStraightPoints = 1 << 14;

}  // namespace

absl::StatusOr<std::unique_ptr<DetourRunner>> DetourRunner::Create(const dtNavMesh* mesh,
                                                                   Vec3 half_extents) {
  std::unique_ptr<DetourRunner> runner(new DetourRunner());
  runner->query_.reset(dtAllocNavMeshQuery());
  if (!runner->query_ || dtStatusFailed(runner->query_->init(mesh, kDetourMaxNodes))) {
    return absl::InternalError(
        absl::StrCat("dtNavMeshQuery::init failed with ", kDetourMaxNodes, " nodes"));
  }
  runner->half_extents_[0] = half_extents.x;
  runner->half_extents_[1] = half_extents.y;
  runner->half_extents_[2] = half_extents.z;
  runner->path_.resize(kMaxPathPolys);
  runner->straight_.resize(3 * kMaxStraightPoints);
  runner->straight_flags_.resize(kMaxStraightPoints);
  runner->straight_refs_.resize(kMaxStraightPoints);
  return runner;
}

void DetourRunner::SetAreaCosts(const QueryFilter& filter) {
  for (int a = 0; a < kMaxAreas && a < DT_MAX_AREAS; ++a) filter_.setAreaCost(a, filter.Cost(a));
}

PathOutcome DetourRunner::FindPath(Vec3 start, Vec3 goal) {
  const float s[3] = {start.x, start.y, start.z};
  const float g[3] = {goal.x, goal.y, goal.z};
  dtPolyRef start_ref = 0, goal_ref = 0;
  float start_pos[3], goal_pos[3];
  query_->findNearestPoly(s, half_extents_, &filter_, &start_ref, start_pos);
  query_->findNearestPoly(g, half_extents_, &filter_, &goal_ref, goal_pos);
  if (!start_ref || !goal_ref) return {};
  int count = 0;
  const dtStatus status = query_->findPath(start_ref, goal_ref, start_pos, goal_pos, &filter_,
                                           path_.data(), &count, kMaxPathPolys);
  if (dtStatusFailed(status) || count == 0) return {};
  PathOutcome out;
  out.complete = path_[count - 1] == goal_ref && !dtStatusDetail(status, DT_PARTIAL_RESULT);
  float end[3] = {goal_pos[0], goal_pos[1], goal_pos[2]};
  if (!out.complete) query_->closestPointOnPoly(path_[count - 1], goal_pos, end, nullptr);
  int points = 0;
  query_->findStraightPath(start_pos, end, path_.data(), count, straight_.data(),
                           straight_flags_.data(), straight_refs_.data(), &points,
                           kMaxStraightPoints, 0);
  for (int i = 1; i < points; ++i) {
    const float* a = &straight_[3 * (i - 1)];
    const float* b = &straight_[3 * i];
    out.length +=
        std::sqrt(double(b[0] - a[0]) * (b[0] - a[0]) + double(b[1] - a[1]) * (b[1] - a[1]) +
                  double(b[2] - a[2]) * (b[2] - a[2]));
  }
  return out;
}

uint32_t DetourRunner::LastExpanded() const {
  const dtNodePool* pool = query_->getNodePool();
  uint32_t closed = 0;
  for (int i = 0; i < pool->getNodeCount(); ++i) {
    closed += (pool->getNodeAtIdx(i + 1)->flags & DT_NODE_CLOSED) != 0;
  }
  return closed;
}

bool DetourRunner::Nearest(Vec3 pos) {
  const float p[3] = {pos.x, pos.y, pos.z};
  dtPolyRef ref = 0;
  float nearest[3];
  query_->findNearestPoly(p, half_extents_, &filter_, &ref, nearest);
  return ref != 0;
}

void DetourRunner::PrepareRays(const std::vector<QueryCase>& queries) {
  ray_starts_.assign(queries.size(), RayStart());
  for (size_t i = 0; i < queries.size(); ++i) {
    const float p[3] = {queries[i].start.x, queries[i].start.y, queries[i].start.z};
    query_->findNearestPoly(p, half_extents_, &filter_, &ray_starts_[i].ref, ray_starts_[i].pos);
  }
}

float DetourRunner::Raycast(size_t i, Vec3 goal) {
  const RayStart& start = ray_starts_[i];
  if (!start.ref) return -1;
  const float end[3] = {goal.x, goal.y, goal.z};
  float t = 0, normal[3];
  int visited = 0;
  query_->raycast(start.ref, start.pos, end, &filter_, &t, normal, path_.data(), &visited,
                  kMaxPathPolys);
  return t;
}

}  // namespace waymesh::bench
