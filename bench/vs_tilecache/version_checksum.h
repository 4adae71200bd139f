#pragma once
// A checksum of a map version's polygons, so that two builds of the carving code can be shown
// to produce bit-identical versions from the same updates (a speed change must not change a
// single bit of what it carves).

#include <cstdint>

#include "waymesh/core/nav_map.h"

namespace waymesh::bench {

// Folds every tile's arrays (vertices, polygons, links, detail triangles, islands, areas, BV
// tree, origins) and generation, and the island count, into `seed` (FNV-1a, 64 bits).
uint64_t ChecksumVersion(const NavMap& map, uint64_t seed);

}  // namespace waymesh::bench
