#pragma once
// Turns merged polygons over the working triangle soup into the RepairedMesh arrays: compact
// vertex numbering (order of first use), corners, per-edge neighbours, detail triangles, area
// ids, flags, tiles and, when source polygons were kept, the source polygon of each.

#include <cstdint>
#include <span>
#include <vector>

#include "polygon_merger.h"
#include "tile_grid.h"
#include "triangle_soup.h"
#include "waymesh/mesh/repaired_mesh.h"

namespace waymesh::repair {

// Polygon flag bit set on every polygon: exports carry no flags, and Detour-style include
// filters (e.g. 0xffef) must still accept the walkable surface.
inline constexpr uint16_t kWalkFlag = 1;

struct AssemblyInput {
  const TriangleSoup* soup;
  const MergedPolygons* polygons;
  std::span<const uint32_t> twin;
  std::span<const uint32_t> tri_tile;
  const TileGrid* grid;
  bool keep_sources;  // RepairOptions::merge == false
  // Per source polygon, the welded vertex of its first corner (keep_sources only), so kept
  // polygons start where the input did.
  std::span<const uint32_t> source_first_vertex;
};

struct AssemblyResult {
  std::vector<double> poly_surface_area;  // m², from the detail triangles
  double walkable_area = 0;               // m², sum of the above
  float max_tile_overhang = 0;            // metres
};

// Fills vertices, poly_*, detail_tris and source_polygon of `mesh`.
AssemblyResult AssembleMesh(const AssemblyInput& in, RepairedMesh* mesh);

}  // namespace waymesh::repair
