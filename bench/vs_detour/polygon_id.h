#pragma once
// A polygon of a NavMap by (tile, polygon) index, and the neighbour across one of its edges.

#include <cstdint>
#include <optional>

#include "waymesh/core/nav_map.h"

namespace waymesh::bench {

struct PolygonId {
  uint32_t tile = 0;
  uint32_t poly = 0;
  friend bool operator==(PolygonId, PolygonId) = default;
};

// The polygon across edge `edge` (corner edge -> edge + 1) of polygon `poly` of `tile`, or
// nullopt for a wall.
inline std::optional<PolygonId> NeighbourAcross(const TileView& tile, uint32_t poly,
                                                uint32_t edge) {
  const uint32_t code = tile.poly_neighbors[tile.poly_start[poly] + edge];
  if (code == kWall) return std::nullopt;
  if (code & kCrossTileBit) {
    const PolyIndex& cross = tile.cross_links[code & ~kCrossTileBit];
    return PolygonId{cross.tile, cross.poly};
  }
  return PolygonId{tile.index, code};
}

}  // namespace waymesh::bench
