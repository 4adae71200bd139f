#pragma once
// The map's square tile grid in X–Z: origin at the bounds min, `tile_size` metres per cell.
// Triangles go to the cell containing their plan-view centroid, before merging, so a merged
// polygon lies in exactly one tile.

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "triangle_soup.h"
#include "waymesh/core/nav_map.h"

namespace waymesh::repair {

struct TileGrid {
  double origin_x = 0, origin_z = 0;
  double tile_size = 1;
  uint32_t width = 1, height = 1;

  // Linear id (grid_z * width + grid_x) of the cell containing (x, z), clamped to the grid.
  uint32_t TileOf(double x, double z) const;
  // How far (x, z) lies outside cell `tile` (0 inside), metres.
  double Overhang(uint32_t tile, double x, double z) const;
};

// Grid covering `bounds`; errors when the cell count exceeds what tile references can address.
absl::StatusOr<TileGrid> MakeTileGrid(const Aabb& bounds, float tile_size);

// Tile of each triangle's plan-view centroid.
std::vector<uint32_t> AssignTriangleTiles(const TileGrid& grid, const TriangleSoup& soup);

// Writes bounds min, tile size, origin and grid dimensions into `info`.
void DescribeGrid(const TileGrid& grid, MapInfo* info);

}  // namespace waymesh::repair
