#pragma once
// Which Detour tile each Waymesh polygon goes to, after splitting polygons into <= 6-corner
// pieces.
//
// Detour limits a tile to < 65535 vertices and 32767 polygons (16-bit indices; the top bit of
// a neighbour index marks a portal). Waymesh tiles are not clipped at their cell borders, so
// their polygons overhang the cell and no Detour tile border can be an axis-aligned line made
// of polygon edges. The adapter therefore keeps whole Waymesh polygons together and cuts the
// polygon sequence (Waymesh tile order, then the tile's spatially sorted polygon order) into
// as few Detour tiles as the limits allow: one tile for most maps.

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "vs_detour/convex_split.h"
#include "waymesh/core/nav_map.h"

namespace waymesh::bench {

// Largest polygon count of one Detour tile (neighbour indices are 15 bits).
inline constexpr uint32_t kMaxDetourTilePolys = 0x7fff;
// Largest vertex count of one Detour tile (dtCreateNavMeshData rejects >= 0xffff).
inline constexpr uint32_t kMaxDetourTileVerts = 0xfffe;

// A piece of one Waymesh polygon.
struct PieceSource {
  uint32_t tile = 0;
  uint32_t poly = 0;
  ConvexPiece piece;
};

// The off-mesh links Detour gets: one per Waymesh link id (a bidirectional link is stored by
// Waymesh once per direction; Detour keeps one connection with the bidirectional flag).
struct LinkSource {
  const OffMeshLink* link = nullptr;
  uint32_t tile = 0;  // Waymesh tile holding the start polygon
};

struct DetourPartition {
  std::vector<PieceSource> pieces;                  // every piece, in Detour tile order
  std::vector<std::vector<uint32_t>> first_piece;   // [Waymesh tile][poly] -> first piece (CSR)
  std::vector<uint32_t> tile_first_piece;           // Detour tile d: [tile_first_piece[d], [d+1])
  std::vector<uint32_t> piece_tile;                 // piece -> Detour tile
  std::vector<std::vector<LinkSource>> tile_links;  // Detour tile -> links starting there
  uint32_t split_polygons = 0;                      // Waymesh polygons cut into several pieces

  uint32_t tile_count() const { return uint32_t(tile_first_piece.size() - 1); }
  // Index of `piece` inside its Detour tile.
  uint32_t IndexInTile(uint32_t piece) const { return piece - tile_first_piece[piece_tile[piece]]; }
};

// How polygons are cut for Detour.
struct DetourConversion {
  // Also cut at straight corners (collinear edges with different neighbours, e.g. T-junction
  // vertices): Detour's raycast leaves a polygon by the first of two collinear edges, so on such
  // polygons it stops early. Costs extra polygons; path queries do not need it.
  bool cut_straight_corners = false;
};

// Splits and assigns every polygon of `map`; fails when one Waymesh polygon alone breaks a
// Detour limit.
absl::StatusOr<DetourPartition> PartitionForDetour(const NavMap& map,
                                                   const DetourConversion& conversion);

}  // namespace waymesh::bench
