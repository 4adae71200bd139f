#pragma once
// The repair pipeline's output: a clean, welded, convex-polygon navmesh with adjacency, islands
// and a tile per polygon, in global indices. `CompileMap` cuts it into `.wmesh` tiles.

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/vec3.h"
#include "waymesh/mesh/tolerances.h"

namespace waymesh {

struct RepairOptions {
  float weld_tolerance = tol::kDefaultWeld;                 // metres
  float t_junction_tolerance = tol::kDefaultTJunction;      // metres
  float merge_height_tolerance = tol::kDefaultMergeHeight;  // metres
  int max_verts_per_poly = tol::kDefaultMaxVertsPerPoly;    // 3 disables merging
  bool merge = true;  // false keeps input polygons (after splitting T-junctions)
  float tile_size = tol::kDefaultTileSize;  // metres; polygons never span tiles
};

// A repair step's counts, for the build report and `waymesh inspect`.
struct RepairReport {
  uint64_t input_vertices = 0;
  uint64_t input_polygons = 0;
  uint64_t input_triangles = 0;
  RepairCounts counts;
  uint64_t duplicates = 0;  // triangles dropped as exact repeats of another (same 3 vertices)
  uint64_t output_vertices = 0;
  uint64_t triangles = 0;  // after weld, degenerate and duplicate removal, T-junction splits
  uint64_t polygons = 0;   // after merging
  uint64_t boundary_edges = 0;
  uint64_t off_mesh_links = 0;
  uint64_t off_mesh_links_dropped = 0;  // an end not on the mesh
  std::vector<std::string> findings;    // one line per non-manifold edge / dropped link, with place
};

// Off-mesh link with both ends attached to polygons.
struct ResolvedOffMeshLink {
  Vec3 start;
  Vec3 end;
  float radius;
  float cost;  // final traversal cost
  uint32_t start_poly;
  uint32_t end_poly;
  uint32_t id;
  uint8_t area;
  bool bidirectional;
};

struct RepairedMesh {
  std::vector<Vec3> vertices;
  std::vector<uint32_t> poly_start{0};  // CSR over poly_verts
  std::vector<uint32_t> poly_verts;     // map winding: TriArea2XZ of consecutive corners > 0
  std::vector<int64_t> poly_neighbors;  // per corner edge (i -> i+1): polygon index or -1
  std::vector<uint8_t> poly_area;
  std::vector<uint16_t> poly_flags;
  std::vector<uint32_t> poly_tile;    // linear tile id: grid_z * grid_width + grid_x
  std::vector<uint32_t> poly_island;  // index into info.islands
  // Original triangles per polygon: n-2 per polygon, corner indices, starting at
  // poly_start[p] - 2p (same convention as TileView::detail_tris).
  std::vector<DetailTri> detail_tris;
  // For each output polygon, the source polygon it came from when RepairOptions::merge is
  // false (identity mapping kept for declared-adjacency checks); empty otherwise.
  std::vector<uint32_t> source_polygon;
  std::vector<ResolvedOffMeshLink> links;
  MapInfo info;  // metadata, areas, bounds, grid, islands, counts, repairs

  uint32_t polygon_count() const { return uint32_t(poly_start.size() - 1); }
  uint32_t corner_count(uint32_t p) const { return poly_start[p + 1] - poly_start[p]; }
};

}  // namespace waymesh
