#include "waymesh/crowd_scenario/crowd_quality.h"

#include <algorithm>
#include <cmath>

#include "waymesh/core/crowd/crowd_tolerances.h"
#include "waymesh/crowd_scenario/scenario_tolerances.h"

namespace waymesh {
namespace {

// Walls further than this beyond an agent's radius (metres) do not matter to its clearance.
constexpr float kClearanceReach = 1.0f;
// Box half size (metres) that finds the surface under a reported position.
constexpr Vec3 kSurfaceBox{0.05f, 1.0f, 0.05f};

uint64_t CellKey(int64_t x, int64_t z) {
  return (uint64_t(uint32_t(int32_t(x))) << 32) | uint32_t(int32_t(z));
}

float SegmentDistanceXZ(Vec3 a, Vec3 b, Vec3 p) {
  const float dx = b.x - a.x, dz = b.z - a.z;
  const float len_sq = dx * dx + dz * dz;
  float t = len_sq > 0 ? ((p.x - a.x) * dx + (p.z - a.z) * dz) / len_sq : 0.0f;
  t = std::clamp(t, 0.0f, 1.0f);
  return std::hypot(a.x + dx * t - p.x, a.z + dz * t - p.z);
}

}  // namespace

CrowdQualityMeter::CrowdQualityMeter(std::shared_ptr<const NavMap> map) : query_(std::move(map)) {}

void CrowdQualityMeter::SetMap(std::shared_ptr<const NavMap> map) { query_ = NavQuery(std::move(map)); }

void CrowdQualityMeter::AddTick(std::span<const MeteredAgent> agents) {
  quality_.agent_ticks += agents.size();
  CountOverlaps(agents);
  for (const MeteredAgent& a : agents) {
    if (a.on_surface) MeasureWalls(a);
  }
}

void CrowdQualityMeter::CountOverlaps(std::span<const MeteredAgent> agents) {
  float max_radius = 0;
  for (const MeteredAgent& a : agents) max_radius = std::max(max_radius, a.radius);
  if (agents.empty() || max_radius <= 0) return;
  const float cell = 2 * max_radius;
  auto cell_of = [&](float v) { return int64_t(std::floor(v / cell)); };
  cells_.clear();
  for (uint32_t i = 0; i < agents.size(); ++i) {
    cells_.emplace_back(CellKey(cell_of(agents[i].pos.x), cell_of(agents[i].pos.z)), i);
  }
  std::sort(cells_.begin(), cells_.end());
  for (uint32_t i = 0; i < agents.size(); ++i) {
    const MeteredAgent& a = agents[i];
    const int64_t cx = cell_of(a.pos.x), cz = cell_of(a.pos.z);
    for (int64_t dz = -1; dz <= 1; ++dz) {
      for (int64_t dx = -1; dx <= 1; ++dx) {
        const uint64_t key = CellKey(cx + dx, cz + dz);
        auto it = std::lower_bound(cells_.begin(), cells_.end(), std::make_pair(key, i + 1));
        for (; it != cells_.end() && it->first == key; ++it) {
          const MeteredAgent& b = agents[it->second];  // it->second > i: each pair once
          if (std::fabs(a.pos.y - b.pos.y) > tol::kCrowdFloorSeparation) continue;
          const float depth = a.radius + b.radius - DistanceXZ(a.pos, b.pos);
          quality_.worst_overlap = std::max(quality_.worst_overlap, depth);
          if (depth > tol::kCrowdOverlapFraction * std::min(a.radius, b.radius)) {
            ++quality_.overlap_pairs;
          }
        }
      }
    }
  }
}

void CrowdQualityMeter::MeasureWalls(const MeteredAgent& agent) {
  const absl::StatusOr<std::optional<SurfacePoint>> at =
      query_.NearestPoint(agent.pos, kSurfaceBox, QueryFilter());
  if (!at.ok() || !at->has_value() || Distance((*at)->pos, agent.pos) > tol::kCrowdOnSurface) {
    ++quality_.off_mesh;
    return;
  }
  float clearance = kClearanceReach;
  if (query_.WallsAround(**at, agent.radius + kClearanceReach, QueryFilter(), &walls_).ok()) {
    for (const WallSegment& w : walls_) {
      clearance = std::min(clearance, SegmentDistanceXZ(w.a, w.b, agent.pos) - agent.radius);
    }
  }
  quality_.min_wall_clearance = std::min(quality_.min_wall_clearance, clearance);
  if (clearance < -tol::kCrowdWallPenetration) ++quality_.wall_penetrations;
}

}  // namespace waymesh
