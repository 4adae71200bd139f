#pragma once
// Linking Detour polygons of different tiles across a shared edge that is not on an
// axis-aligned tile border (Detour's own stitching, dtNavMesh::connectExtLinks, only matches
// edges lying on the border line between grid neighbours).

#include <DetourNavMesh.h>

#include "absl/status/status.h"

namespace waymesh::bench {

// Makes edge `edge` of polygon `from` a whole-edge portal to polygon `to`, exactly as Detour
// links neighbours inside a tile. The link takes a free slot of the tile's link pool:
// dtCreateNavMeshData reserves one per polygon edge, and border edges (this one was built as
// one, as are walls) never use theirs. Fails when the pool is empty or a ref is invalid.
absl::Status LinkAcrossTiles(const dtNavMesh& mesh, dtPolyRef from, int edge, dtPolyRef to);

}  // namespace waymesh::bench
