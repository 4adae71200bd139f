#pragma once
// Shared by the crowd tests: the arenas of waymesh/crowd_scenario/crowd_scenes.h compiled into
// maps, a chunk runner on real threads, and brute-force judges of what a crowd reported
// (independent of the crowd's own code): surface, walls, overlaps.

#include <algorithm>
#include <cmath>
#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"
#include "support/map_builder.h"
#include "waymesh/core/crowd/crowd.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/crowd_scenario/crowd_scenes.h"

namespace waymesh::testing {

// An agent centre may sit this much closer to a wall than its radius (metres): float rounding
// of the slide along the surface and the push-out.
inline constexpr float kWallClearanceSlack = 0.005f;
// A reported position lies on the surface when the nearest surface point is this close (m).
inline constexpr float kOnSurfaceSlack = 1e-3f;
// Overlaps deeper than this fraction of the smaller radius fail the ORCA property tests.
inline constexpr float kOverlapFraction = 0.1f;

inline std::shared_ptr<const NavMap> ArenaMap(const SourceMesh& arena) {
  absl::StatusOr<std::shared_ptr<const NavMap>> map = BuildMapFromSource(arena);
  EXPECT_TRUE(map.ok()) << map.status();
  return map.ok() ? *map : nullptr;
}

// Runs each chunk on one of `workers` threads (chunk c on thread c % workers), like a worker
// pool would.
class ThreadChunkRunner final : public crowd::ChunkRunner {
 public:
  explicit ThreadChunkRunner(uint32_t workers) : workers_(workers) {}
  uint32_t workers() const override { return workers_; }
  void Run(uint32_t chunks,
           absl::FunctionRef<void(uint32_t chunk, uint32_t worker)> work) override {
    std::vector<std::thread> threads;
    for (uint32_t w = 0; w < workers_; ++w) {
      threads.emplace_back([&, w] {
        for (uint32_t c = w; c < chunks; c += workers_) work(c, w);
      });
    }
    for (std::thread& t : threads) t.join();
  }

 private:
  uint32_t workers_;
};

// Plan-view distance from p to segment ab.
inline float SegmentDistance(Vec3 a, Vec3 b, Vec3 p) {
  const float dx = b.x - a.x, dz = b.z - a.z;
  const float len_sq = dx * dx + dz * dz;
  const float t =
      len_sq > 0 ? std::clamp(((p.x - a.x) * dx + (p.z - a.z) * dz) / len_sq, 0.f, 1.f) : 0.0f;
  return std::hypot(a.x + dx * t - p.x, a.z + dz * t - p.z);
}

// Every boundary edge of a resident map (brute force: no query code involved).
inline std::vector<WallSegment> AllWalls(const NavMap& map) {
  std::vector<WallSegment> walls;
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      const uint32_t n = t.corner_count(p);
      for (uint32_t i = 0; i < n; ++i) {
        if (t.poly_neighbors[t.poly_start[p] + i] == kWall) {
          walls.push_back({t.corner(p, i), t.corner(p, (i + 1) % n)});
        }
      }
    }
  }
  return walls;
}

// Fails the test when an agent is off the surface, closer to a wall than its radius, or
// overlaps another by more than kOverlapFraction of the smaller radius (single-floor maps).
struct CrowdJudge {
  explicit CrowdJudge(std::shared_ptr<const NavMap> map) : query(map), walls(AllWalls(*map)) {}

  void Check(const std::vector<crowd::AgentUpdate>& agents, const std::vector<float>& radius,
             int tick) {
    for (size_t i = 0; i < agents.size(); ++i) {
      const crowd::AgentUpdate& a = agents[i];
      absl::StatusOr<std::optional<SurfacePoint>> on =
          query.NearestPoint(a.pos, {0.1f, 1.0f, 0.1f}, QueryFilter());
      ASSERT_TRUE(on.ok() && on->has_value()) << "agent " << a.id << " tick " << tick;
      EXPECT_LE(Distance((*on)->pos, a.pos), kOnSurfaceSlack)
          << "agent " << a.id << " off the surface at tick " << tick;
      for (const WallSegment& w : walls) {
        const float d = SegmentDistance(w.a, w.b, a.pos);
        worst_wall = std::min(worst_wall, d - radius[i]);
        EXPECT_GE(d, radius[i] - kWallClearanceSlack)
            << "agent " << a.id << " at (" << a.pos.x << ", " << a.pos.z << ") is " << d
            << " m from a wall at tick " << tick;
      }
      for (size_t j = i + 1; j < agents.size(); ++j) {
        const float depth = radius[i] + radius[j] - DistanceXZ(a.pos, agents[j].pos);
        worst_overlap = std::max(worst_overlap, depth / std::min(radius[i], radius[j]));
        EXPECT_LE(depth, kOverlapFraction * std::min(radius[i], radius[j]))
            << "agents " << a.id << " and " << agents[j].id << " overlap at tick " << tick;
      }
    }
  }

  NavQuery query;
  std::vector<WallSegment> walls;
  float worst_wall = INFINITY;
  float worst_overlap = -INFINITY;  // as a fraction of the smaller radius
};

}  // namespace waymesh::testing
