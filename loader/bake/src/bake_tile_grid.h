#pragma once
// The bake's view of level geometry: flat triangle arrays as Recast wants them, and the square
// tile grid with the triangles that touch each tile (plus its border), in CSR form.

#include <cstdint>
#include <span>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/core/vec3.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh::bake {

// Level geometry fan-triangulated for Recast.
struct BakeGeometry {
  std::vector<float> verts;             // x, y, z per vertex
  std::vector<int> tris;                // three vertex indices per triangle
  std::vector<unsigned char> walkable;  // per triangle: Recast's walkable or null area by slope
  Aabb bounds;                          // of the vertices used by triangles

  size_t vertex_count() const { return verts.size() / 3; }
  size_t triangle_count() const { return tris.size() / 3; }
};

// Fan-triangulates every polygon of `mesh` (as Recast's own OBJ loader does) and marks
// triangles no steeper than `max_slope_deg` walkable.
BakeGeometry TriangulateForBake(const SourceMesh& mesh, float max_slope_deg);

struct BakeTileGrid {
  Vec3 origin;           // X–Z corner of tile (0, 0); y = lowest geometry
  float tile_world = 0;  // tile edge length, metres
  uint32_t width = 0;    // tiles along X
  uint32_t height = 0;   // tiles along Z
  // Tile t = z * width + x holds triangles tile_tris[tile_start[t] .. tile_start[t + 1]).
  std::vector<uint64_t> tile_start;
  std::vector<uint32_t> tile_tris;

  uint64_t tile_count() const { return uint64_t{width} * height; }
  std::span<const uint32_t> Triangles(uint64_t tile) const {
    return std::span<const uint32_t>(tile_tris).subspan(tile_start[tile],
                                                        tile_start[tile + 1] - tile_start[tile]);
  }
};

// Lays tiles of `tile_world` metres over the geometry and lists, for each, the triangles whose
// plan-view bounds come within `border_world` metres of it. Refuses (InvalidArgument, with the
// numbers) grids of more than `max_tiles` tiles and placements that would need absurd memory.
absl::StatusOr<BakeTileGrid> BuildBakeTileGrid(const BakeGeometry& geometry, float tile_world,
                                               float border_world, uint64_t max_tiles);

}  // namespace waymesh::bake
