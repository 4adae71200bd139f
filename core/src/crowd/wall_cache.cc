#include "crowd/wall_cache.h"

#include <algorithm>
#include <tuple>

#include "crowd/orca_lines.h"

namespace waymesh::crowd::internal {
namespace {

// Push-out passes: one per wall of a corner is enough in practice.
constexpr int kPushPasses = 3;

float DistSqToWall(const WallSegment& w, V2 p) {
  return LengthSq2(ClosestOnSegment(XZ(w.a), XZ(w.b), p) - p);
}

}  // namespace

float WallRange(const CrowdOptions& options, const AgentParams& params) {
  return 2 * params.radius + params.max_speed * options.wall_time_horizon;
}

absl::StatusOr<bool> RefreshWalls(NavQuery& query, const CrowdOptions& options, Agent& agent,
                                  std::vector<WallSegment>* scratch) {
  const V2 pos = XZ(agent.at.pos);
  const float slack = options.wall_cache_slack;
  if (agent.walls_valid && LengthSq2(pos - agent.wall_centre) <= slack * slack) return false;
  const float range = WallRange(options, agent.params) + slack;
  if (absl::Status s = query.WallsAround(agent.at, range, agent.params.filter, scratch); !s.ok()) {
    return s;
  }
  if (scratch->size() > kMaxWalls) {
    // Keep the nearest ones. Ties are broken by the coordinates, so the order is total and
    // the kept set does not depend on the sort.
    std::sort(scratch->begin(), scratch->end(), [&](const WallSegment& a, const WallSegment& b) {
      const float da = DistSqToWall(a, pos), db = DistSqToWall(b, pos);
      if (da != db) return da < db;
      return std::tie(a.a.x, a.a.z, a.b.x, a.b.z) < std::tie(b.a.x, b.a.z, b.b.x, b.b.z);
    });
    scratch->resize(kMaxWalls);
  }
  agent.wall_count = uint32_t(scratch->size());
  for (uint32_t i = 0; i < agent.wall_count; ++i) {
    agent.walls[i] = WallXZ{XZ((*scratch)[i].a), XZ((*scratch)[i].b)};
  }
  agent.wall_centre = pos;
  agent.walls_valid = true;
  return true;
}

V2 PushOutOfWalls(V2 pos, float radius, std::span<const WallXZ> walls) {
  for (int pass = 0; pass < kPushPasses; ++pass) {
    bool moved = false;
    for (const WallXZ& w : walls) {
      if (Det2(w.b - w.a, pos - w.a) < 0) continue;  // behind it: another wall is nearer
      const V2 c = ClosestOnSegment(w.a, w.b, pos);
      const V2 away = pos - c;
      const float d_sq = LengthSq2(away);
      if (d_sq >= radius * radius) continue;
      const float d = std::sqrt(d_sq);
      const V2 n = d > 0 ? away * (1.0f / d) : V2{-(w.b - w.a).z, (w.b - w.a).x};
      pos = c + Normalized2(n) * radius;
      moved = true;
    }
    if (!moved) break;
  }
  return pos;
}

}  // namespace waymesh::crowd::internal
