#pragma once
// The height detail of one Detour polygon: which triangles describe its surface.

#include <cstdint>
#include <span>
#include <vector>

#include "waymesh/core/nav_map.h"

namespace waymesh::bench {

// Appends the detail triangles of a Detour polygon whose corners are `order` (corner indices of
// the source polygon, Detour winding) to `tris` (Detour's 4 bytes per triangle: local corner
// indices and boundary-edge flags); returns how many. The source polygon's own triangles
// (`source`) that fall inside the piece keep its exact heights; a piece cut across them gets a
// fan over its corners.
int AppendDetailTriangles(std::span<const uint8_t> order, std::span<const DetailTri> source,
                          std::vector<uint8_t>* tris);

}  // namespace waymesh::bench
