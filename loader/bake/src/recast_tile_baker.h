#pragma once
// Bakes one tile with Recast, as its tiled sample does: a heightfield covering the tile plus a
// border of (agent radius + 3) voxels, so erosion and regions see past the tile edge and
// neighbouring tiles produce matching seams; the polygons themselves stop at the tile edge.

#include <Recast.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "bake_tile_grid.h"
#include "waymesh/bake/bake_volumes.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh::bake {

// Recast's area ids for Waymesh's: Walkable is Recast's "walkable" (63), Not Walkable its null
// area (0), every other id (2..62) itself.
unsigned char ToRecastArea(uint8_t area);
uint8_t FromRecastArea(unsigned char recast_area);

// What one tile produced.
struct TileOutput {
  uint32_t polygons = 0;
  uint32_t triangles = 0;
};

class RecastTileBaker {
 public:
  // `config` holds every voxel parameter (cs, ch, walkable*, borderSize, tileSize, width,
  // height, region, contour and detail settings); bmin/bmax are set per tile. `volumes` are
  // applied in the given order (later wins). Both must outlive the baker.
  RecastTileBaker(const rcConfig& config, const BakeGeometry& geometry,
                  std::span<const AreaVolume> volumes);

  // Bakes tile (x, z) of `grid` from its triangles and appends the detail triangles, in world
  // coordinates, to `out` (area per triangle). Errors name the tile and Recast's message.
  absl::StatusOr<TileOutput> Bake(const BakeTileGrid& grid, uint32_t x, uint32_t z,
                                  SourceMesh* out);

  // Recast's warnings so far, each prefixed with its tile.
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  class Log;

  absl::Status TileConfig(const BakeTileGrid& grid, uint32_t x, uint32_t z,
                          std::span<const uint32_t> tris, rcConfig* cfg) const;
  void MarkVolumes(const rcConfig& cfg, rcCompactHeightfield& chf) const;

  rcConfig base_;
  const BakeGeometry& geometry_;
  std::span<const AreaVolume> volumes_;
  std::vector<std::vector<float>> outlines_;  // prism outlines as Recast's float triples
  std::vector<int> tile_tris_;                // scratch: this tile's triangles
  std::vector<unsigned char> tile_areas_;
  std::vector<std::string> warnings_;
};

}  // namespace waymesh::bake
