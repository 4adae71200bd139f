#include "vs_detour/detour_mesh.h"

#include <algorithm>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "vs_detour/detour_links.h"
#include "vs_detour/detour_partition.h"
#include "vs_detour/detour_tile_data.h"

namespace waymesh::bench {
namespace {

uint64_t Align4(uint64_t bytes) { return (bytes + 3) & ~uint64_t{3}; }

void AddSectionBytes(const dtMeshHeader& h, DetourBytes* bytes) {
  bytes->header += Align4(sizeof(dtMeshHeader));
  bytes->vertices += Align4(sizeof(float) * 3 * uint64_t(h.vertCount));
  bytes->polygons += Align4(sizeof(dtPoly) * uint64_t(h.polyCount));
  bytes->links += Align4(sizeof(dtLink) * uint64_t(h.maxLinkCount));
  bytes->detail += Align4(sizeof(dtPolyDetail) * uint64_t(h.detailMeshCount)) +
                   Align4(sizeof(float) * 3 * uint64_t(h.detailVertCount)) +
                   Align4(4 * uint64_t(h.detailTriCount));
  bytes->bv_tree += Align4(sizeof(dtBVNode) * uint64_t(h.bvNodeCount));
  bytes->off_mesh += Align4(sizeof(dtOffMeshConnection) * uint64_t(h.offMeshConCount));
}

// Links owned by polygon edges (not off-mesh connections) over the whole mesh.
uint64_t CountEdgeLinks(const dtNavMesh& mesh) {
  uint64_t count = 0;
  for (int t = 0; t < mesh.getMaxTiles(); ++t) {
    const dtMeshTile* tile = mesh.getTile(t);
    if (!tile->header) continue;
    for (int p = 0; p < tile->header->polyCount; ++p) {
      const dtPoly& poly = tile->polys[p];
      if (poly.getType() != DT_POLYTYPE_GROUND) continue;
      for (unsigned int l = poly.firstLink; l != DT_NULL_LINK; l = tile->links[l].next) {
        if (tile->links[l].edge < poly.vertCount) ++count;
      }
    }
  }
  return count;
}

// One grid cell holds every tile (as layers), so each spatial query visits every tile: the
// tiles' polygons overlap in plan view and could not be found through neighbouring cells.
dtNavMeshParams SingleCellParams(const std::vector<DetourTileData>& tiles) {
  dtNavMeshParams params{};
  float lo[3] = {std::numeric_limits<float>::max(), 0, std::numeric_limits<float>::max()};
  float hi[3] = {std::numeric_limits<float>::lowest(), 0, std::numeric_limits<float>::lowest()};
  int max_polys = 1;
  for (const DetourTileData& tile : tiles) {
    const auto* h = reinterpret_cast<const dtMeshHeader*>(tile.data.get());
    for (int i : {0, 2}) {
      lo[i] = std::min(lo[i], h->bmin[i]);
      hi[i] = std::max(hi[i], h->bmax[i]);
    }
    max_polys = std::max(max_polys, h->polyCount);
  }
  params.orig[0] = lo[0];
  params.orig[2] = lo[2];
  params.tileWidth = params.tileHeight = std::max(hi[0] - lo[0], hi[2] - lo[2]) + 1.0f;
  params.maxTiles = int(tiles.size());
  params.maxPolys = max_polys;
  return params;
}

// Builds every tile's data; adds the per-tile counts to `stats`.
absl::StatusOr<std::vector<DetourTileData>> BuildTiles(const NavMap& map,
                                                       const DetourPartition& partition,
                                                       DetourMeshStats* stats,
                                                       uint64_t* connected_edges) {
  std::vector<DetourTileData> tiles;
  for (uint32_t d = 0; d < partition.tile_count(); ++d) {
    absl::StatusOr<DetourTileData> tile = BuildDetourTile(map, partition, d);
    if (!tile.ok()) return tile.status();
    stats->polygons += tile->polys;
    stats->off_mesh_links += tile->off_mesh_links;
    stats->inexact_portals += tile->inexact_portals;
    stats->zero_area_polygons += tile->zero_area_polygons;
    stats->max_quantization_error =
        std::max(stats->max_quantization_error, tile->max_quantization_error);
    *connected_edges += tile->connected_edges;
    tiles.push_back(*std::move(tile));
  }
  return tiles;
}

// Hands every tile to `mesh`; returns each tile's polygon reference base.
absl::StatusOr<std::vector<dtPolyRef>> AddTiles(std::vector<DetourTileData>& tiles, dtNavMesh& mesh,
                                                DetourMeshStats* stats) {
  std::vector<dtPolyRef> base(tiles.size());
  for (size_t d = 0; d < tiles.size(); ++d) {
    dtTileRef ref = 0;
    if (dtStatusFailed(
            mesh.addTile(tiles[d].data.get(), tiles[d].size, DT_TILE_FREE_DATA, 0, &ref))) {
      return absl::InternalError(absl::StrCat("dtNavMesh::addTile failed for tile ", d));
    }
    (void)tiles[d].data.release();  // the mesh frees it from now on
    const dtMeshTile* tile = mesh.getTileByRef(ref);
    base[d] = mesh.getPolyRefBase(tile);
    AddSectionBytes(*tile->header, &stats->bytes);
    stats->bytes.total += uint64_t(tile->dataSize);
    stats->off_mesh_stored += uint32_t(tile->header->offMeshConCount);
  }
  return base;
}

// Links the portals between Detour tiles that Detour's own stitching cannot see.
absl::Status LinkPortals(const std::vector<DetourTileData>& tiles,
                         const std::vector<dtPolyRef>& base, const DetourPartition& partition,
                         const dtNavMesh& mesh, DetourMeshStats* stats) {
  for (size_t d = 0; d < tiles.size(); ++d) {
    for (const PendingPortal& portal : tiles[d].portals) {
      const dtPolyRef to = base[partition.piece_tile[portal.target_piece]] |
                           partition.IndexInTile(portal.target_piece);
      absl::Status linked = LinkAcrossTiles(mesh, base[d] | portal.poly, portal.edge, to);
      if (!linked.ok()) return linked;
      ++stats->cross_tile_links;
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::unique_ptr<DetourMesh>> DetourMesh::Build(const NavMap& map,
                                                              const DetourConversion& conversion) {
  absl::StatusOr<DetourPartition> partition = PartitionForDetour(map, conversion);
  if (!partition.ok()) return partition.status();
  std::unique_ptr<DetourMesh> out(new DetourMesh());
  DetourMeshStats& stats = out->stats_;
  stats.tiles = partition->tile_count();
  stats.split_polygons = partition->split_polygons;
  uint64_t connected_edges = 0;
  absl::StatusOr<std::vector<DetourTileData>> tiles =
      BuildTiles(map, *partition, &stats, &connected_edges);
  if (!tiles.ok()) return tiles.status();

  out->mesh_.reset(dtAllocNavMesh());
  const dtNavMeshParams params = SingleCellParams(*tiles);
  if (!out->mesh_ || dtStatusFailed(out->mesh_->init(&params))) {
    return absl::ResourceExhaustedError(
        absl::StrCat("dtNavMesh::init failed: ", params.maxTiles, " tiles of up to ",
                     params.maxPolys, " polygons do not fit Detour's 32-bit polygon references"));
  }
  absl::StatusOr<std::vector<dtPolyRef>> base = AddTiles(*tiles, *out->mesh_, &stats);
  if (!base.ok()) return base.status();
  absl::Status linked = LinkPortals(*tiles, *base, *partition, *out->mesh_, &stats);
  if (!linked.ok()) return linked;
  const uint64_t links = CountEdgeLinks(*out->mesh_);
  if (links != connected_edges) {
    return absl::InternalError(absl::StrCat("Detour has ", links, " edge links, expected ",
                                            connected_edges, " (one per connected edge)"));
  }
  return out;
}

}  // namespace waymesh::bench
