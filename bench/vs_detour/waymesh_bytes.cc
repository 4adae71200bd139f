#include "vs_detour/waymesh_bytes.h"

namespace waymesh::bench {

WaymeshBytes MeasureWaymeshBytes(const NavMap& map, uint64_t compiled_bytes) {
  WaymeshBytes b;
  // The sections below split TileView::bytes() but for poly_origin, which only carving fills:
  // a map read from a file has none.
  uint64_t sections = 0;
  for (const TileView& t : map.tiles()) {
    sections += t.bytes();
    b.vertices += t.vertices.size_bytes();
    b.polygons += t.poly_start.size_bytes() + t.poly_verts.size_bytes() +
                  t.poly_neighbors.size_bytes() + t.poly_area.size_bytes() +
                  t.poly_flags.size_bytes() + t.poly_island.size_bytes() +
                  t.area_prefix.size_bytes();
    b.detail += t.detail_tris.size_bytes();
    b.bv_tree += t.bv_nodes.size_bytes();
    b.links += t.cross_links.size_bytes() + t.off_mesh_links.size_bytes();
  }
  b.total = compiled_bytes;
  b.other = compiled_bytes > sections ? compiled_bytes - sections : 0;
  return b;
}

}  // namespace waymesh::bench
