#pragma once
// Shared by the carving tests: the arena map they carve, random obstacle sets over a map, and
// the footprints those obstacles cut.

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <variant>
#include <vector>

#include "gtest/gtest.h"
#include "support/map_builder.h"
#include "support/test_data.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/obstacles/footprint.h"
#include "waymesh/core/obstacles/obstacle.h"

namespace waymesh::testing {

// Polyanya's arena (arena-merged.mesh) cut into tiles of `tile_size` metres, built once per
// tile size.
inline std::shared_ptr<const NavMap> CarveArena(float tile_size) {
  RepairOptions options;
  options.tile_size = tile_size;
  auto map = CachedMapFromFile(SharedData("polyanya/meshes/arena-merged.mesh"), options);
  EXPECT_TRUE(map.ok()) << map.status();
  return map.ok() ? *map : nullptr;
}

// Obstacles around random surface points: cylinders, yawed boxes and affine images of regular
// polygons (convex prisms), block and area, overlapping at will.
inline std::vector<Obstacle> RandomObstacles(NavQuery& q, int count, std::mt19937& rng,
                                             bool with_area) {
  std::uniform_real_distribution<float> u(0, 1);
  std::vector<Obstacle> out;
  QueryFilter all;
  for (int i = 0; i < count; ++i) {
    const auto at = q.RandomPoint(all, rng);
    if (!at.ok() || !*at) continue;
    const Vec3 c = (*at)->pos;
    Obstacle o;
    o.id = "o" + std::to_string(i);
    o.effect = with_area && u(rng) < 0.3f ? ObstacleEffect::kArea : ObstacleEffect::kBlock;
    o.area = 5;
    const int kind = int(u(rng) * 3);
    if (kind == 0) {
      o.shape = CylinderShape{c, 0.3f + 2 * u(rng), 4};
    } else if (kind == 1) {
      o.shape = BoxShape{c, {0.2f + 3 * u(rng), 2, 0.2f + 1 * u(rng)}, 360 * u(rng)};
    } else {
      PrismShape p;
      const int n = 3 + int(u(rng) * 6);
      const float sx = 0.5f + 2 * u(rng), sz = 0.5f + 2 * u(rng), rot = 6.28f * u(rng);
      for (int k = 0; k < n; ++k) {
        const float a = rot + 6.2831853f * k / n;
        p.points.push_back({c.x + sx * std::cos(a), c.z + sz * std::sin(a)});
      }
      p.y_min = c.y - 2, p.y_max = c.y + 2;
      o.shape = p;
    }
    out.push_back(o);
  }
  return out;
}

// Stretches every obstacle's height range beyond `bounds` (by `margin` metres each way), so
// that it cuts every floor and plan-view oracles apply to maps with slopes.
inline void SpanHeights(const Aabb& bounds, float margin, std::vector<Obstacle>* obstacles) {
  const float mid = 0.5f * (bounds.min.y + bounds.max.y);
  const float half = 0.5f * (bounds.max.y - bounds.min.y) + margin;
  for (Obstacle& o : *obstacles) {
    if (auto* c = std::get_if<CylinderShape>(&o.shape)) {
      c->center.y = mid;
      c->height = 2 * half;
    } else if (auto* b = std::get_if<BoxShape>(&o.shape)) {
      b->center.y = mid;
      b->half_extents.y = half;
    } else {
      auto& p = std::get<PrismShape>(o.shape);
      p.y_min = mid - half, p.y_max = mid + half;
    }
  }
}

inline std::vector<Footprint> Footprints(const NavMap& map,
                                         const std::vector<Obstacle>& obstacles) {
  std::vector<Footprint> fs;
  for (const Obstacle& o : obstacles) fs.push_back(ObstacleFootprint(o, map.info().agent));
  return fs;
}

}  // namespace waymesh::testing
