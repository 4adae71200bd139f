#pragma once
// Islands of a whole resident map, recomputed after carving (a wall may split one).

#include <cstdint>
#include <span>
#include <vector>

#include "waymesh/core/nav_map.h"

namespace waymesh::obstacles {

// Per tile, each polygon's island; *islands as MapInfo::islands. Numbered as the map compiler
// numbers them: largest first (polygons, then area, then lowest (tile, polygon)); off-mesh
// links join islands into groups. Union-find over every polygon of the map.
void ComputeIslands(std::span<const TileView> tiles,
                    std::vector<std::vector<uint32_t>>* poly_island,
                    std::vector<IslandInfo>* islands);

}  // namespace waymesh::obstacles
