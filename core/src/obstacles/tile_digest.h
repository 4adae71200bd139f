#pragma once
// One tile's part of a map's digest (nav_map.h), kept with the tile: a carved map version
// gathers its digest from its tiles' parts instead of reading every polygon of the map again.

#include <array>
#include <cstdint>

#include "waymesh/core/nav_map.h"

namespace waymesh::obstacles {

struct TileDigest {
  TileSummary summary;
  uint64_t areas_present = 0;
  std::array<float, kMaxAreas> link_cost_per_metre{};
};

// What AddTileToDigest adds for `tile` (`info` gives the area costs).
TileDigest DigestOfTile(const MapInfo& info, const TileView& tile);

// Appends a tile's part (the next tile by index) to `digest`, as AddTileToDigest would.
void AppendTileDigest(const TileDigest& part, MapDigest* digest);

}  // namespace waymesh::obstacles
