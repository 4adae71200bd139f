#pragma once
// Serialises one planned tile into its `.wmesh` bytes (docs/map-format.md, "Tile").

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "tile_plan.h"
#include "waymesh/core/poly_ref.h"
#include "waymesh/mesh/repaired_mesh.h"
#include "wmesh_layout.h"

namespace waymesh {

// Reused across tiles: global vertex -> local vertex of the tile being written.
struct TileWriterScratch {
  std::vector<uint32_t> local_vertex;
  std::vector<uint32_t> used_vertices;
};

// Appends the tile `v` (its index, grid cell, bounds, quantization and arrays) to `out`
// (whose size must be a multiple of wmesh::kAlignment) and returns its directory record. Fails
// only when the tile exceeds the format's 32-bit limits.
absl::StatusOr<wmesh::TileRecord> WriteTileView(const TileView& v, std::string* out);

// Appends tile `index` of `mesh`, as `plan` lays it out, to `out` (as WriteTileView).
absl::StatusOr<wmesh::TileRecord> WriteTile(const RepairedMesh& mesh, const TilePlan& plan,
                                            uint32_t index, std::span<const PolyIndex> placement,
                                            TileWriterScratch* scratch, std::string* out);

}  // namespace waymesh
