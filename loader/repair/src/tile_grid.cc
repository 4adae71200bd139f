#include "tile_grid.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_format.h"
#include "waymesh/core/poly_ref.h"

namespace waymesh::repair {
namespace {

// PolyRef addresses 2^22 tiles.
constexpr uint64_t kMaxTiles = uint64_t{1} << PolyRef::kTileBits;

}  // namespace

uint32_t TileGrid::TileOf(double x, double z) const {
  const double gx = std::clamp(std::floor((x - origin_x) / tile_size), 0.0, double(width - 1));
  const double gz = std::clamp(std::floor((z - origin_z) / tile_size), 0.0, double(height - 1));
  return uint32_t(gz) * width + uint32_t(gx);
}

double TileGrid::Overhang(uint32_t tile, double x, double z) const {
  const double min_x = origin_x + (tile % width) * tile_size;
  const double min_z = origin_z + (tile / width) * tile_size;
  return std::max({0.0, min_x - x, x - (min_x + tile_size), min_z - z, z - (min_z + tile_size)});
}

absl::StatusOr<TileGrid> MakeTileGrid(const Aabb& bounds, float tile_size) {
  TileGrid grid;
  grid.origin_x = bounds.min.x;
  grid.origin_z = bounds.min.z;
  grid.tile_size = tile_size;
  const double nx = std::max(1.0, std::ceil((double(bounds.max.x) - bounds.min.x) / tile_size));
  const double nz = std::max(1.0, std::ceil((double(bounds.max.z) - bounds.min.z) / tile_size));
  if (nx * nz > double(kMaxTiles)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "tile size %g m gives a %.0f x %.0f tile grid for this map; at most %d tiles are "
        "supported, use a larger tile size",
        tile_size, nx, nz, kMaxTiles));
  }
  grid.width = uint32_t(nx);
  grid.height = uint32_t(nz);
  return grid;
}

std::vector<uint32_t> AssignTriangleTiles(const TileGrid& grid, const TriangleSoup& soup) {
  std::vector<uint32_t> tiles(soup.tris.size());
  for (size_t t = 0; t < soup.tris.size(); ++t) {
    const Vec3 a = soup.vertices[soup.tris[t][0]], b = soup.vertices[soup.tris[t][1]],
               c = soup.vertices[soup.tris[t][2]];
    tiles[t] = grid.TileOf((double(a.x) + b.x + c.x) / 3, (double(a.z) + b.z + c.z) / 3);
  }
  return tiles;
}

void DescribeGrid(const TileGrid& grid, MapInfo* info) {
  info->tile_size = float(grid.tile_size);
  info->grid_origin = {float(grid.origin_x), info->bounds.min.y, float(grid.origin_z)};
  info->grid_width = grid.width;
  info->grid_height = grid.height;
}

}  // namespace waymesh::repair
