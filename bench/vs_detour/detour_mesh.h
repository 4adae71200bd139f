#pragma once
// A Waymesh map rebuilt as a Detour navmesh over the same polygons: polygons with more than
// six corners are split along diagonals, vertices are quantized to a power-of-two cell (exact
// for integer and dyadic coordinates), detail triangles are the map's own triangles, and
// off-mesh links become Detour off-mesh connections. See detour_partition.h for the tiling.

#include <DetourNavMesh.h>

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "vs_detour/detour_partition.h"
#include "waymesh/core/nav_map.h"

namespace waymesh::bench {

// Detour tile bytes by section, summed over tiles.
struct DetourBytes {
  uint64_t header = 0, vertices = 0, polygons = 0, links = 0, detail = 0, bv_tree = 0, off_mesh = 0;
  uint64_t total = 0;  // sum of the tiles' data sizes
};

struct DetourMeshStats {
  uint32_t tiles = 0;
  uint32_t polygons = 0;              // ground polygons (pieces)
  uint32_t split_polygons = 0;        // Waymesh polygons cut into several pieces
  uint32_t cross_tile_links = 0;      // portals linked by the adapter between Detour tiles
  uint32_t inexact_portals = 0;       // neighbour edges whose corners did not coincide
  uint32_t zero_area_polygons = 0;    // after quantization (slivers in the source map)
  uint32_t off_mesh_links = 0;        // handed to Detour
  uint32_t off_mesh_stored = 0;       // kept by dtCreateNavMeshData (start inside a tile)
  double max_quantization_error = 0;  // metres
  DetourBytes bytes;
};

// Owns a dtNavMesh built from a NavMap.
class DetourMesh {
 public:  // Converts `map`; checks that Detour ends up with one link per connected edge.
  static absl::StatusOr<std::unique_ptr<DetourMesh>> Build(const NavMap& map,
                                                           const DetourConversion& conversion);

  const dtNavMesh* nav_mesh() const { return mesh_.get(); }
  // For what edits a built mesh (DetourCrowd's gate closing sets polygon flags).
  dtNavMesh* mutable_nav_mesh() { return mesh_.get(); }
  const DetourMeshStats& stats() const { return stats_; }

 private:
  struct Free {
    void operator()(dtNavMesh* mesh) const { dtFreeNavMesh(mesh); }
  };
  DetourMesh() = default;

  std::unique_ptr<dtNavMesh, Free> mesh_;
  DetourMeshStats stats_;
};

}  // namespace waymesh::bench
