#pragma once
// A tile's arrays owned in memory: what the map compiler gathers before laying a tile out in
// its file, and what carving builds for a changed tile, whose TileView points into them.

#include <cstdint>
#include <vector>

#include "waymesh/core/nav_map.h"

namespace waymesh {

struct TileArrays {
  std::vector<Vec3> vertices;
  std::vector<uint32_t> poly_start{0}, poly_verts, poly_neighbors, poly_island;
  std::vector<uint8_t> poly_area;
  std::vector<uint16_t> poly_flags;
  std::vector<DetailTri> detail_tris;
  std::vector<float> area_prefix{0.0f};
  std::vector<BvNode> bv_nodes;
  std::vector<PolyIndex> cross_links;
  std::vector<OffMeshLink> off_mesh_links;
  std::vector<uint32_t> poly_origin;

  // Points every array span of `view` at these arrays (its other fields stay as they are).
  void PointViewAt(TileView* view) const {
    view->vertices = vertices;
    view->poly_start = poly_start;
    view->poly_verts = poly_verts;
    view->poly_neighbors = poly_neighbors;
    view->poly_area = poly_area;
    view->poly_flags = poly_flags;
    view->poly_island = poly_island;
    view->detail_tris = detail_tris;
    view->area_prefix = area_prefix;
    view->bv_nodes = bv_nodes;
    view->cross_links = cross_links;
    view->off_mesh_links = off_mesh_links;
    view->poly_origin = poly_origin;
  }
};

}  // namespace waymesh
