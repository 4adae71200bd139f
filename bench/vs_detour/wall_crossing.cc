#include "vs_detour/wall_crossing.h"

#include <cmath>

namespace waymesh::bench {
namespace {

// Parameters closer than this to a segment's ends are "touching", not crossing (fraction).
constexpr double kTouch = 1e-9;

}  // namespace

WallCrossing::WallCrossing(const NavMap& map) {
  for (const TileView& tile : map.tiles()) {
    for (uint32_t p = 0; p < tile.poly_count(); ++p) {
      const uint32_t n = tile.corner_count(p);
      for (uint32_t c = 0; c < n; ++c) {
        if (tile.poly_neighbors[tile.poly_start[p] + c] != kWall) continue;
        const Vec3 a = tile.corner(p, c), b = tile.corner(p, (c + 1) % n);
        walls_.push_back({a.x, a.z, b.x, b.z});
      }
    }
  }
}

float WallCrossing::FirstCrossing(Vec3 start, Vec3 end) const {
  const double sx = start.x, sz = start.z, dx = double(end.x) - sx, dz = double(end.z) - sz;
  double first = 1;
  for (const Segment& w : walls_) {
    const double ex = w.bx - w.ax, ez = w.bz - w.az;
    const double denominator = dx * ez - dz * ex;
    if (denominator == 0) continue;  // parallel: grazing, never crossing
    const double t = ((w.ax - sx) * ez - (w.az - sz) * ex) / denominator;
    const double u = ((w.ax - sx) * dz - (w.az - sz) * dx) / denominator;
    if (t > kTouch && t < first && u > kTouch && u < 1 - kTouch) first = t;
  }
  return static_cast<float>(first);
}

}  // namespace waymesh::bench
