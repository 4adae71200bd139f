#pragma once
// One Detour tile's data (dtCreateNavMeshData) from the Waymesh polygons the partition gave it.

#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "vs_detour/detour_partition.h"
#include "waymesh/core/nav_map.h"

namespace waymesh::bench {

// Frees memory from Detour's allocator.
struct DetourFree {
  void operator()(unsigned char* data) const;
};
using DetourData = std::unique_ptr<unsigned char, DetourFree>;

// A polygon edge whose neighbour is in another Detour tile: Detour only stitches tiles along
// axis-aligned borders, so the adapter links these itself after adding the tiles.
struct PendingPortal {
  uint32_t poly = 0;          // polygon index in this tile
  uint8_t edge = 0;           // Detour edge index
  uint32_t target_piece = 0;  // piece index in the partition
};

struct DetourTileData {
  DetourData data;
  int size = 0;
  std::vector<PendingPortal> portals;
  uint32_t polys = 0;                 // ground polygons (pieces)
  uint32_t off_mesh_links = 0;        // connections handed to Detour
  uint64_t connected_edges = 0;       // edges with a neighbour, inside or across tiles
  uint32_t inexact_portals = 0;       // neighbour edges matched by proximity, not equal corners
  uint32_t zero_area_polygons = 0;    // no area left after quantization
  double max_quantization_error = 0;  // metres, largest |Detour vertex - Waymesh vertex|
};

// Builds Detour tile `detour_tile` of `partition`. Tiles are placed at grid cell (0, 0) with
// layer = tile index, so every tile is searched by Detour's spatial queries.
absl::StatusOr<DetourTileData> BuildDetourTile(const NavMap& map, const DetourPartition& partition,
                                               uint32_t detour_tile);

}  // namespace waymesh::bench
