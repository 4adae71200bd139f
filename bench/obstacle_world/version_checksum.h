#pragma once
// A checksum of the map versions an obstacle benchmark makes, so that two builds of the carving
// code can be shown to produce bit-identical versions from the same updates (a speed change
// must not change a single bit of what it carves).

#include <cstdint>

#include "waymesh/core/nav_map.h"

namespace waymesh::bench {

// Folds `next` into `seed`: its island count, every tile's generation, and the arrays
// (vertices, polygons, links, detail triangles, islands, areas, BV tree, origins) of every
// tile whose arrays are not the very ones of the same tile in `previous` (a version shares
// unchanged tiles, so this covers everything that differs at the cost of what changed).
uint64_t ChecksumVersion(const NavMap& previous, const NavMap& next, uint64_t seed);

}  // namespace waymesh::bench
