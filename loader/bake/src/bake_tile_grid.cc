#include "bake_tile_grid.h"

#include <Recast.h>

#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"

namespace waymesh::bake {
namespace {

// Tile-triangle placements beyond this (4 bytes each) mean triangles spanning an absurd number
// of tiles: refused rather than allocated.
constexpr uint64_t kMaxPlacements = uint64_t{1} << 27;

struct TileRange {
  uint32_t x0, x1, z0, z1;  // inclusive
};

uint32_t TileIndex(double offset, float tile_world, uint32_t count) {
  const double t = std::floor(offset / tile_world);
  return static_cast<uint32_t>(std::clamp(t, 0.0, double(count - 1)));
}

TileRange RangeOf(const BakeGeometry& g, size_t t, const BakeTileGrid& grid, float border) {
  float lo_x = 1e30f, lo_z = 1e30f, hi_x = -1e30f, hi_z = -1e30f;
  for (int k = 0; k < 3; ++k) {
    const float* v = &g.verts[3 * size_t(g.tris[3 * t + k])];
    lo_x = std::min(lo_x, v[0]);
    hi_x = std::max(hi_x, v[0]);
    lo_z = std::min(lo_z, v[2]);
    hi_z = std::max(hi_z, v[2]);
  }
  const double ox = grid.origin.x, oz = grid.origin.z;
  return {TileIndex(lo_x - border - ox, grid.tile_world, grid.width),
          TileIndex(hi_x + border - ox, grid.tile_world, grid.width),
          TileIndex(lo_z - border - oz, grid.tile_world, grid.height),
          TileIndex(hi_z + border - oz, grid.tile_world, grid.height)};
}

}  // namespace

BakeGeometry TriangulateForBake(const SourceMesh& mesh, float max_slope_deg) {
  BakeGeometry g;
  g.verts.reserve(mesh.vertices.size() * 3);
  for (const Vec3& v : mesh.vertices) g.verts.insert(g.verts.end(), {v.x, v.y, v.z});
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    const uint32_t first = mesh.poly_start[p];
    for (uint32_t c = first + 2; c < mesh.poly_start[p + 1]; ++c) {
      g.tris.insert(g.tris.end(), {int(mesh.poly_verts[first]), int(mesh.poly_verts[c - 1]),
                                   int(mesh.poly_verts[c])});
      for (uint32_t k : {first, c - 1, c}) g.bounds.Extend(mesh.vertices[mesh.poly_verts[k]]);
    }
  }
  g.walkable.assign(g.triangle_count(), RC_NULL_AREA);
  rcContext quiet(false);
  rcMarkWalkableTriangles(&quiet, max_slope_deg, g.verts.data(), int(g.vertex_count()),
                          g.tris.data(), int(g.triangle_count()), g.walkable.data());
  return g;
}

absl::StatusOr<BakeTileGrid> BuildBakeTileGrid(const BakeGeometry& geometry, float tile_world,
                                               float border_world, uint64_t max_tiles) {
  BakeTileGrid grid;
  grid.origin = geometry.bounds.min;
  grid.tile_world = tile_world;
  const double tiles_x =
      std::max(1.0, std::ceil((double(geometry.bounds.max.x) - grid.origin.x) / tile_world));
  const double tiles_z =
      std::max(1.0, std::ceil((double(geometry.bounds.max.z) - grid.origin.z) / tile_world));
  if (tiles_x * tiles_z > double(max_tiles)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "the geometry spans %.0f x %.0f m, which needs %.0f x %.0f tiles of %g m; at most %d "
        "tiles are allowed (raise the voxel size or the tile size)",
        geometry.bounds.max.x - grid.origin.x, geometry.bounds.max.z - grid.origin.z, tiles_x,
        tiles_z, tile_world, max_tiles));
  }
  grid.width = static_cast<uint32_t>(tiles_x);
  grid.height = static_cast<uint32_t>(tiles_z);

  // Two passes (count, then fill) so placements live in one array.
  grid.tile_start.assign(grid.tile_count() + 1, 0);
  uint64_t placements = 0;
  for (size_t t = 0; t < geometry.triangle_count(); ++t) {
    const TileRange r = RangeOf(geometry, t, grid, border_world);
    placements += uint64_t(r.x1 - r.x0 + 1) * (r.z1 - r.z0 + 1);
    if (placements > kMaxPlacements) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "the geometry's triangles overlap more than %d tile cells in total (triangle %d "
          "alone spans %d x %d tiles); raise the voxel size or the tile size",
          kMaxPlacements, t, r.x1 - r.x0 + 1, r.z1 - r.z0 + 1));
    }
    for (uint32_t z = r.z0; z <= r.z1; ++z) {
      for (uint32_t x = r.x0; x <= r.x1; ++x) ++grid.tile_start[uint64_t{z} * grid.width + x + 1];
    }
  }
  for (uint64_t i = 0; i < grid.tile_count(); ++i) grid.tile_start[i + 1] += grid.tile_start[i];
  grid.tile_tris.resize(placements);
  std::vector<uint64_t> cursor(grid.tile_start.begin(), grid.tile_start.end() - 1);
  for (size_t t = 0; t < geometry.triangle_count(); ++t) {
    const TileRange r = RangeOf(geometry, t, grid, border_world);
    for (uint32_t z = r.z0; z <= r.z1; ++z) {
      for (uint32_t x = r.x0; x <= r.x1; ++x) {
        grid.tile_tris[cursor[uint64_t{z} * grid.width + x]++] = static_cast<uint32_t>(t);
      }
    }
  }
  return grid;
}

}  // namespace waymesh::bake
