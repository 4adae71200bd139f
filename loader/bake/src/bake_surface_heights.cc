#include "bake_surface_heights.h"

#include <Recast.h>

#include <algorithm>
#include <cmath>
#include <optional>

namespace waymesh::bake {
namespace {

Vec3 VertexOf(const BakeGeometry& g, int index) {
  const float* v = &g.verts[3 * size_t(index)];
  return {v[0], v[1], v[2]};
}

// Height of triangle t at (x, z) when (x, z) is inside it in plan view.
std::optional<float> HeightOnTriangle(const BakeGeometry& g, uint32_t t, float x, float z) {
  const Vec3 a = VertexOf(g, g.tris[3 * size_t(t)]);
  const Vec3 b = VertexOf(g, g.tris[3 * size_t(t) + 1]);
  const Vec3 c = VertexOf(g, g.tris[3 * size_t(t) + 2]);
  const double area = TriArea2XZ(a, b, c);
  if (area == 0) return std::nullopt;
  const Vec3 p{x, 0, z};
  const double u = TriArea2XZ(p, b, c) / area;
  const double v = TriArea2XZ(a, p, c) / area;
  const double w = 1 - u - v;
  // A point on a shared edge belongs to both triangles; a little slack keeps it in one.
  constexpr double kEdgeSlack = -1e-6;
  if (u < kEdgeSlack || v < kEdgeSlack || w < kEdgeSlack) return std::nullopt;
  return static_cast<float>(u * a.y + v * b.y + w * c.y);
}

uint64_t TileOf(const BakeTileGrid& grid, float x, float z) {
  auto cell = [&](float c, float origin, uint32_t count) {
    const double i = std::floor((double(c) - origin) / grid.tile_world);
    return static_cast<uint64_t>(std::clamp(i, 0.0, double(count - 1)));
  };
  return cell(z, grid.origin.z, grid.height) * grid.width + cell(x, grid.origin.x, grid.width);
}

}  // namespace

uint64_t SnapHeightsToGeometry(const BakeGeometry& geometry, const BakeTileGrid& grid, float below,
                               float above, std::vector<Vec3>* vertices) {
  uint64_t moved = 0;
  for (Vec3& v : *vertices) {
    std::optional<float> best;
    for (uint32_t t : grid.Triangles(TileOf(grid, v.x, v.z))) {
      if (geometry.walkable[t] == RC_NULL_AREA) continue;
      const std::optional<float> y = HeightOnTriangle(geometry, t, v.x, v.z);
      if (!y || *y < v.y - below || *y > v.y + above) continue;
      if (!best || *y > *best) best = y;
    }
    if (best && *best != v.y) {
      v.y = *best;
      ++moved;
    }
  }
  return moved;
}

}  // namespace waymesh::bake
