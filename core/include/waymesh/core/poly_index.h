#pragma once
// A polygon of a map named by its tile and its index inside that tile: the one way core names a
// polygon (adjacency across tile seams, search nodes, corridors). Callers outside core hold a
// PolyRef, which adds the tile's generation so that stale names are caught.

#include <cstdint>

namespace waymesh {

struct PolyIndex {
  uint32_t tile;
  uint32_t poly;
  friend constexpr bool operator==(PolyIndex, PolyIndex) = default;
};

}  // namespace waymesh
