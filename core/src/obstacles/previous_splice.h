#pragma once
// Splicing carved polygons from the previous layer version. A rebuilt tile's polygon whose
// pieces (or base corners with T-junction points) are the same as in the previous version's
// state of the tile is the same polygon there: its triangles and surface area are copied, and
// an edge whose neighbour in the previous version is also the same polygon now keeps that link
// (renumbered) instead of being matched again. Only the polygons an update reaches, and the
// edges facing them, are triangulated and matched.

#include "tile_assembly.h"

namespace waymesh::obstacles {

// The polygons of `now` (merged pieces, numbering and work tile set) that are the same as in
// `previous`, the previous version's state of the same tile.
KeptPolygons FindKeptPolygons(const TileState& now, const TileState& previous);

}  // namespace waymesh::obstacles
