#pragma once
// Makes the two sides of every tile seam agree on their shared vertices. Each tile's detail
// mesh samples heights from its own regions, so a corner both tiles put at the same place on
// the seam can get heights a cell or two apart, and the repair pipeline's 3D weld would keep
// them apart. Vertices on a seam at the same plan position and nearly the same height are
// given one position (the lowest of them), so the weld joins them exactly.

#include <cstdint>
#include <vector>

#include "bake_tile_grid.h"
#include "waymesh/core/vec3.h"

namespace waymesh::bake {

// Snaps vertices lying on interior seam lines of `grid` (within `plan_tolerance` of the line)
// that are within `plan_tolerance` of each other along it and `height_tolerance` in height.
// Returns how many vertices moved.
uint64_t StitchSeams(const BakeTileGrid& grid, float plan_tolerance, float height_tolerance,
                     std::vector<Vec3>* vertices);

}  // namespace waymesh::bake
