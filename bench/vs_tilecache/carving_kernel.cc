#include "vs_tilecache/carving_kernel.h"

#include <algorithm>
#include <cmath>

#include "common/stopwatch.h"
#include "obstacles/carve_pieces.h"
#include "obstacles/piece_merge.h"
#include "waymesh/core/obstacles/footprint.h"

namespace waymesh::bench {

CarvingKernel::CarvingKernel(std::shared_ptr<const NavMap> map) : map_(std::move(map)) {
  for (uint32_t t = 0; t < map_->tile_count(); ++t) {
    const TileView& tile = map_->tile(t);
    for (uint32_t p = 0; p < tile.poly_count(); ++p) {
      PolygonRef r{t, p, INFINITY, -INFINITY, INFINITY, -INFINITY};
      for (uint32_t i = 0; i < tile.corner_count(p); ++i) {
        const Vec3 v = tile.corner(p, i);
        r.x0 = std::min(r.x0, v.x), r.x1 = std::max(r.x1, v.x);
        r.z0 = std::min(r.z0, v.z), r.z1 = std::max(r.z1, v.z);
      }
      polygons_.push_back(r);
    }
  }
}

CarvingKernel::Run CarvingKernel::TimeAdd(const Obstacle& obstacle) const {
  // The footprint's bounds, from a copy computed outside the clock (it is computed again inside).
  const Footprint outline = ObstacleFootprint(obstacle, map_->info().agent);
  double x0 = INFINITY, x1 = -INFINITY, z0 = INFINITY, z1 = -INFINITY;
  for (const PlanPoint& q : outline.outline) {
    x0 = std::min(x0, q.x), x1 = std::max(x1, q.x);
    z0 = std::min(z0, q.z), z1 = std::max(z1, q.z);
  }
  std::vector<const PolygonRef*> near;
  for (const PolygonRef& r : polygons_) {
    if (r.x0 <= x1 && r.x1 >= x0 && r.z0 <= z1 && r.z1 >= z0) near.push_back(&r);
  }
  Run run;
  std::vector<obstacles::Piece> pieces;
  const uint32_t only = 0;
  const Stopwatch watch;
  const std::vector<Footprint> footprints{ObstacleFootprint(obstacle, map_->info().agent)};
  for (const PolygonRef* r : near) {
    if (!obstacles::CutPolygon(map_->tile(r->tile), r->poly, footprints, {&only, 1}, &pieces)) {
      continue;
    }
    obstacles::MergePieces(&pieces);
    ++run.polygons_cut;
  }
  run.ms = watch.ElapsedMs();
  return run;
}

}  // namespace waymesh::bench
