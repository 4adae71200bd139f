#include "bake_seams.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace waymesh::bake {
namespace {

struct SeamPoint {
  uint32_t axis;  // 0: a line of constant x, 1: constant z
  uint32_t line;  // seam index k: the line lies at origin + k * tile_world
  float along;    // the other plan coordinate
  float y;
  uint32_t vertex;
};

bool operator<(const SeamPoint& a, const SeamPoint& b) {
  return std::tie(a.axis, a.line, a.along, a.y, a.vertex) <
         std::tie(b.axis, b.line, b.along, b.y, b.vertex);
}

// The interior seam index of coordinate `c` (1 .. tiles - 1), or 0 when it is on none.
uint32_t SeamLine(float c, float origin, float tile_world, uint32_t tiles, float tolerance) {
  const double k = std::round((double(c) - origin) / tile_world);
  if (k < 1 || k > double(tiles) - 1) return 0;
  const double line = double(origin) + k * tile_world;
  return std::abs(c - line) <= tolerance ? static_cast<uint32_t>(k) : 0;
}

std::vector<SeamPoint> CollectSeamPoints(const BakeTileGrid& grid, float tolerance,
                                         const std::vector<Vec3>& vertices) {
  std::vector<SeamPoint> points;
  for (uint32_t i = 0; i < vertices.size(); ++i) {
    const Vec3& v = vertices[i];
    if (uint32_t k = SeamLine(v.x, grid.origin.x, grid.tile_world, grid.width, tolerance)) {
      points.push_back({0, k, v.z, v.y, i});
    }
    if (uint32_t k = SeamLine(v.z, grid.origin.z, grid.tile_world, grid.height, tolerance)) {
      points.push_back({1, k, v.x, v.y, i});
    }
  }
  std::sort(points.begin(), points.end());
  return points;
}

}  // namespace

uint64_t StitchSeams(const BakeTileGrid& grid, float plan_tolerance, float height_tolerance,
                     std::vector<Vec3>* vertices) {
  const std::vector<SeamPoint> points = CollectSeamPoints(grid, plan_tolerance, *vertices);
  std::vector<uint8_t> taken(points.size(), 0);
  uint64_t moved = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    if (taken[i]) continue;
    // Points[i] is the first of its group in sort order: the others follow within the window.
    const SeamPoint& first = points[i];
    const Vec3 target = (*vertices)[first.vertex];
    for (size_t j = i + 1; j < points.size(); ++j) {
      const SeamPoint& p = points[j];
      if (p.axis != first.axis || p.line != first.line || p.along - first.along > plan_tolerance) {
        break;
      }
      if (taken[j] || std::abs(p.y - first.y) > height_tolerance) continue;
      taken[j] = 1;
      Vec3& v = (*vertices)[p.vertex];
      if (!(v == target)) {
        v = target;
        ++moved;
      }
    }
  }
  return moved;
}

}  // namespace waymesh::bake
