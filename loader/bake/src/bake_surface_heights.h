#pragma once
// Puts baked vertices back on the level geometry. A voxel column's top is the highest point of
// the geometry inside it, so Recast's surface floats up to a voxel's width times the slope
// above a ramp or terrain; a map answers height queries for servers and anti-cheat checks, so
// each vertex takes the height of the walkable triangle right under it instead.

#include <cstdint>
#include <vector>

#include "bake_tile_grid.h"
#include "waymesh/core/vec3.h"

namespace waymesh::bake {

// Moves each vertex vertically onto the highest walkable triangle of `geometry` at its (x, z)
// that lies between `below` metres under it and `above` metres over it; vertices with no such
// triangle keep their height. Returns how many vertices moved.
uint64_t SnapHeightsToGeometry(const BakeGeometry& geometry, const BakeTileGrid& grid, float below,
                               float above, std::vector<Vec3>* vertices);

}  // namespace waymesh::bake
