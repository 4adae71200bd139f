#pragma once
// What makes a loaded map structurally sound, defined once for everything that reads or writes
// maps: `waymesh build` checks what it wrote, `inspect` and every load refuse a map that fails,
// `waymesh validate` lists each failure, and the server never serves such a map. Checksums
// cannot tell: a broken writer (or a hostile one) can seal any bytes with valid CRCs.
//
//  - tile grid: tile_size at least kMinTileSize, grid origin and map bounds within the
//    coordinate limit;
//  - vertices: every coordinate within ±tol::kMaxCoordinate (what importers accept);
//  - winding: every polygon convex in the map's winding (a polygon wound the other way has
//    every corner reflex);
//  - neighbours: no polygon links to itself, and every link is mirrored by the neighbour
//    across the same two corners.
// Topology findings that only make a map worse, not unsafe (open seams, edges of more than two
// polygons), are `waymesh validate`'s (topology_check), not these.

#include <vector>

#include "absl/status/status.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/format/map_finding.h"

namespace waymesh {

// Smallest tile edge a map may have (m); building a map with smaller tiles is refused.
inline constexpr float kMinTileSize = 0.01f;

// Every structural problem of `map`, naming tile, polygon, edge and position (deterministic).
// Checks: kCheckStructure (grid, coordinates), kCheckNonConvex, kCheckNonManifold (links).
std::vector<MapFinding> CheckMapStructure(const NavMap& map);

// How the message of a map refused for its structure begins; the command line adds where to
// see every problem.
inline constexpr char kStructurallyBroken[] = "structurally broken: ";

// OK, or InvalidArgument "structurally broken: <first finding>" (with how many more).
absl::Status MapStructureStatus(const NavMap& map);

}  // namespace waymesh
