#pragma once
// Where a compiled Waymesh map's bytes go, by section, summed over tiles.

#include <cstdint>

#include "waymesh/core/nav_map.h"

namespace waymesh::bench {

struct WaymeshBytes {
  uint64_t vertices = 0;
  uint64_t polygons = 0;  // corner lists, neighbours, area, flags, island, area prefix
  uint64_t detail = 0;    // detail triangles
  uint64_t bv_tree = 0;
  uint64_t links = 0;  // cross-tile links and off-mesh links
  uint64_t other = 0;  // headers, directory, metadata, alignment
  uint64_t total = 0;  // the compiled bytes
};

// Section sizes of `map`, whose compiled form is `compiled_bytes` long.
WaymeshBytes MeasureWaymeshBytes(const NavMap& map, uint64_t compiled_bytes);

}  // namespace waymesh::bench
