#include "vs_detour/detour_partition.h"

#include <algorithm>
#include <array>
#include <span>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "vs_detour/polygon_id.h"
#include "vs_detour/vertex_key.h"

namespace waymesh::bench {
namespace {

// Off-mesh links Detour keeps, grouped by Waymesh tile and start polygon.
struct LinksByPolygon {
  std::vector<absl::flat_hash_map<uint32_t, std::vector<LinkSource>>> per_tile;
};

LinksByPolygon CollectLinks(const NavMap& map) {
  LinksByPolygon out;
  out.per_tile.resize(map.tile_count());
  absl::flat_hash_set<uint32_t> seen_bidirectional;
  for (const TileView& tile : map.tiles()) {
    for (const OffMeshLink& link : tile.off_mesh_links) {
      if (link.bidirectional && !seen_bidirectional.insert(link.id).second) continue;
      out.per_tile[tile.index][link.start_poly].push_back({&link, tile.index});
    }
  }
  return out;
}

// Splits polygon `p` of `tile`; optionally also at straight corners between edges with
// different neighbours (Detour's raycast picks the first of two collinear exit edges).
void SplitForDetour(const TileView& tile, uint32_t p, bool cut_straight_corners,
                    std::vector<ConvexPiece>* pieces) {
  const uint32_t n = tile.corner_count(p);
  std::array<Vec3, kMaxSplitCorners> corners;
  std::array<uint8_t, kMaxSplitCorners> cut_at{};
  for (uint32_t c = 0; c < n; ++c) corners[c] = tile.corner(p, c);
  for (uint32_t c = 0; c < n; ++c) {
    const uint32_t prev = (c + n - 1) % n;
    cut_at[c] = cut_straight_corners &&
                NeighbourAcross(tile, p, prev) != NeighbourAcross(tile, p, c) &&
                IsStraightCorner(corners[prev], corners[c], corners[(c + 1) % n]);
  }
  SplitConvexPolygon(std::span(corners.data(), n), std::span(cut_at.data(), n), pieces);
}

// The Detour tile being filled.
struct OpenTile {
  absl::flat_hash_set<VertexKey> vertices;
  uint32_t link_vertices = 0;  // off-mesh endpoints are stored apart, never shared
  uint32_t polys = 0;          // pieces plus off-mesh connections

  uint64_t vertex_count() const { return vertices.size() + link_vertices; }
};

// Splits every polygon; fills `pieces`, `first_piece` and `split_polygons` of `out`.
absl::Status SplitAll(const NavMap& map, bool cut_straight_corners, DetourPartition* out) {
  out->first_piece.resize(map.tile_count());
  std::vector<ConvexPiece> pieces;
  for (const TileView& tile : map.tiles()) {
    std::vector<uint32_t>& first = out->first_piece[tile.index];
    first.reserve(tile.poly_count() + 1);
    for (uint32_t p = 0; p < tile.poly_count(); ++p) {
      if (tile.corner_count(p) < 3 || tile.corner_count(p) > kMaxSplitCorners) {
        return absl::InvalidArgumentError(absl::StrCat("tile ", tile.index, " polygon ", p, " has ",
                                                       tile.corner_count(p), " corners"));
      }
      SplitForDetour(tile, p, cut_straight_corners, &pieces);
      first.push_back(uint32_t(out->pieces.size()));
      for (const ConvexPiece& piece : pieces) out->pieces.push_back({tile.index, p, piece});
      if (pieces.size() > 1) ++out->split_polygons;
    }
    first.push_back(uint32_t(out->pieces.size()));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<DetourPartition> PartitionForDetour(const NavMap& map,
                                                   const DetourConversion& conversion) {
  DetourPartition out;
  const absl::Status split = SplitAll(map, conversion.cut_straight_corners, &out);
  if (!split.ok()) return split;
  const LinksByPolygon links = CollectLinks(map);

  // Balance the tiles: as many as the polygon and vertex totals need, equally filled.
  uint64_t total_verts = 0;
  for (const TileView& tile : map.tiles()) total_verts += tile.vertices.size();
  uint64_t total_polys = out.pieces.size();  // pieces and off-mesh connections
  for (const auto& per_poly : links.per_tile) {
    for (const auto& [poly, starts] : per_poly) total_polys += starts.size();
  }
  const uint64_t tiles_needed =
      std::max<uint64_t>({1, (total_polys + kMaxDetourTilePolys - 1) / kMaxDetourTilePolys,
                          (total_verts + kMaxDetourTileVerts - 1) / kMaxDetourTileVerts});
  const uint64_t poly_cap =
      std::min<uint64_t>(kMaxDetourTilePolys, (total_polys + tiles_needed - 1) / tiles_needed);

  out.piece_tile.reserve(out.pieces.size());
  out.tile_first_piece.push_back(0);
  out.tile_links.emplace_back();
  OpenTile open;
  for (const TileView& tile : map.tiles()) {
    const std::vector<uint32_t>& first = out.first_piece[tile.index];
    for (uint32_t p = 0; p < tile.poly_count(); ++p) {
      const uint32_t n = tile.corner_count(p);
      auto found = links.per_tile[tile.index].find(p);
      const std::vector<LinkSource>* starts =
          found == links.per_tile[tile.index].end() ? nullptr : &found->second;
      const uint32_t link_count = starts ? uint32_t(starts->size()) : 0;
      const uint32_t polys = first[p + 1] - first[p] + link_count;
      const uint32_t verts = n + 2 * link_count;  // an upper bound: some may be shared
      if (polys > kMaxDetourTilePolys || verts > kMaxDetourTileVerts) {
        return absl::ResourceExhaustedError(
            absl::StrCat("tile ", tile.index, " polygon ", p, ": too large for one Detour tile"));
      }
      if (open.polys > 0 &&
          (open.polys + polys > poly_cap || open.vertex_count() + verts > kMaxDetourTileVerts)) {
        out.tile_first_piece.push_back(first[p]);
        out.tile_links.emplace_back();
        open = OpenTile();
      }
      const uint32_t detour_tile = uint32_t(out.tile_first_piece.size() - 1);
      out.piece_tile.insert(out.piece_tile.end(), first[p + 1] - first[p], detour_tile);
      for (uint32_t c = 0; c < n; ++c) open.vertices.insert(KeyOf(tile.corner(p, c)));
      open.polys += polys;
      open.link_vertices += 2 * link_count;
      if (starts) {
        for (const LinkSource& link : *starts) out.tile_links.back().push_back(link);
      }
    }
  }
  out.tile_first_piece.push_back(uint32_t(out.pieces.size()));
  return out;
}

}  // namespace waymesh::bench
