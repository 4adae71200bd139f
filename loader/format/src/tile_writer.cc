#include "tile_writer.h"

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "crc32.h"
#include "waymesh/core/tile_arrays.h"

namespace waymesh {
namespace {

constexpr uint32_t kUnset = UINT32_MAX;

uint32_t LocalVertex(const RepairedMesh& mesh, uint32_t global, TileWriterScratch* s,
                     TileArrays* a) {
  uint32_t& local = s->local_vertex[global];
  if (local == kUnset) {
    local = uint32_t(a->vertices.size());
    a->vertices.push_back(mesh.vertices[global]);
    s->used_vertices.push_back(global);
  }
  return local;
}

uint32_t Neighbor(int64_t global, uint32_t tile, std::span<const PolyIndex> placement,
                  TileArrays* a) {
  if (global < 0) return kWall;
  const PolyIndex to = placement[global];
  if (to.tile == tile) return to.poly;
  a->cross_links.push_back(to);
  return kCrossTileBit | uint32_t(a->cross_links.size() - 1);
}

// 3D surface area of polygon p: the sum of its detail (original) triangles.
double SurfaceArea(const RepairedMesh& mesh, uint32_t p) {
  const uint32_t first = mesh.poly_start[p];
  double area = 0;
  for (uint32_t t = first - 2 * p; t < mesh.poly_start[p + 1] - 2 * p - 2; ++t) {
    const DetailTri& d = mesh.detail_tris[t];
    const Vec3 a = mesh.vertices[mesh.poly_verts[first + d.a]];
    const Vec3 b = mesh.vertices[mesh.poly_verts[first + d.b]];
    const Vec3 c = mesh.vertices[mesh.poly_verts[first + d.c]];
    const double ux = double(b.x) - a.x, uy = double(b.y) - a.y, uz = double(b.z) - a.z;
    const double vx = double(c.x) - a.x, vy = double(c.y) - a.y, vz = double(c.z) - a.z;
    const double cx = uy * vz - uz * vy, cy = uz * vx - ux * vz, cz = ux * vy - uy * vx;
    area += 0.5 * std::sqrt(cx * cx + cy * cy + cz * cz);
  }
  return area;
}

TileArrays Gather(const RepairedMesh& mesh, const TilePlan& plan, uint32_t index,
                  std::span<const PolyIndex> placement, TileWriterScratch* s) {
  TileArrays a;
  double area_sum = 0;
  for (uint32_t p : plan.polys) {
    const uint32_t begin = mesh.poly_start[p], end = mesh.poly_start[p + 1];
    for (uint32_t c = begin; c < end; ++c) {
      a.poly_verts.push_back(LocalVertex(mesh, mesh.poly_verts[c], s, &a));
      a.poly_neighbors.push_back(Neighbor(mesh.poly_neighbors[c], index, placement, &a));
    }
    a.poly_start.push_back(uint32_t(a.poly_verts.size()));
    a.detail_tris.insert(a.detail_tris.end(), mesh.detail_tris.begin() + (begin - 2 * p),
                         mesh.detail_tris.begin() + (end - 2 * p - 2));
    a.poly_island.push_back(mesh.poly_island[p]);
    a.poly_area.push_back(mesh.poly_area[p]);
    a.poly_flags.push_back(mesh.poly_flags[p]);
    area_sum += SurfaceArea(mesh, p);
    a.area_prefix.push_back(float(area_sum));
  }
  for (DetailTri& d : a.detail_tris) d.pad = 0;
  for (uint32_t v : s->used_vertices) s->local_vertex[v] = kUnset;
  s->used_vertices.clear();
  return a;
}

wmesh::TileHeader MakeTileHeader(const TileView& v) {
  wmesh::TileHeader h{};
  std::memcpy(h.magic, wmesh::kTileMagic, sizeof h.magic);
  h.tile_index = v.index;
  h.grid_x = v.grid_x;
  h.grid_z = v.grid_z;
  h.bounds = v.bounds;
  h.bv_quant_factor = v.bv_quant_factor;
  h.vertex_count = uint32_t(v.vertices.size());
  h.poly_count = v.poly_count();
  h.corner_count = uint32_t(v.poly_verts.size());
  h.bv_node_count = uint32_t(v.bv_nodes.size());
  h.cross_link_count = uint32_t(v.cross_links.size());
  h.off_mesh_link_count = uint32_t(v.off_mesh_links.size());
  return h;
}

template <typename T>
void Put(std::span<const T> v, uint64_t offset, char* tile) {
  if (!v.empty()) std::memcpy(tile + offset, v.data(), v.size_bytes());
}

// Copies header and arrays to their offsets in `tile` (zeroed, l.total bytes).
void Lay(const wmesh::TileHeader& h, const wmesh::TileLayout& l, const TileView& v, char* tile) {
  std::memcpy(tile, &h, sizeof h);
  Put(v.vertices, l.vertices, tile);
  Put(v.poly_start, l.poly_start, tile);
  Put(v.poly_verts, l.poly_verts, tile);
  Put(v.poly_neighbors, l.poly_neighbors, tile);
  Put(v.poly_island, l.poly_island, tile);
  Put(v.area_prefix, l.area_prefix, tile);
  Put(v.bv_nodes, l.bv_nodes, tile);
  Put(v.cross_links, l.cross_links, tile);
  Put(v.off_mesh_links, l.off_mesh_links, tile);
  Put(v.detail_tris, l.detail_tris, tile);
  Put(v.poly_flags, l.poly_flags, tile);
  Put(v.poly_area, l.poly_area, tile);
}

}  // namespace

absl::StatusOr<wmesh::TileRecord> WriteTileView(const TileView& v, std::string* out) {
  if (v.poly_verts.size() > wmesh::kMaxTileIndex || v.cross_links.size() > wmesh::kMaxTileIndex) {
    return absl::InvalidArgumentError(
        absl::StrCat("tile ", v.index, " has too many corners for the format"));
  }
  const wmesh::TileHeader h = MakeTileHeader(v);
  const wmesh::TileLayout l = wmesh::ComputeTileLayout(h);
  if (l.total > UINT32_MAX) {
    return absl::InvalidArgumentError(
        absl::StrCat("tile ", v.index, " needs ", l.total, " bytes, more than the format's 4 GiB"));
  }
  const size_t offset = out->size();
  out->resize(offset + l.total, '\0');
  char* tile = out->data() + offset;
  Lay(h, l, v, tile);

  wmesh::TileRecord r{};
  r.grid_x = v.grid_x;
  r.grid_z = v.grid_z;
  r.offset = offset;
  r.bytes = uint32_t(l.total);
  r.crc = Crc32(std::as_bytes(std::span(tile, l.total)));
  r.poly_count = h.poly_count;
  r.vertex_count = h.vertex_count;
  r.bounds = v.bounds;
  return r;
}

absl::StatusOr<wmesh::TileRecord> WriteTile(const RepairedMesh& mesh, const TilePlan& plan,
                                            uint32_t index, std::span<const PolyIndex> placement,
                                            TileWriterScratch* scratch, std::string* out) {
  if (scratch->local_vertex.size() != mesh.vertices.size()) {
    scratch->local_vertex.assign(mesh.vertices.size(), kUnset);
  }
  TileArrays a = Gather(mesh, plan, index, placement, scratch);
  a.bv_nodes = plan.bv_nodes;
  a.off_mesh_links = plan.off_mesh_links;
  TileView v;
  v.index = index;
  v.grid_x = plan.grid_x;
  v.grid_z = plan.grid_z;
  v.bounds = plan.bounds;
  v.bv_quant_factor = plan.bv_quant_factor;
  a.PointViewAt(&v);
  absl::StatusOr<wmesh::TileRecord> r = WriteTileView(v, out);
  if (!r.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("CompileMap: ", r.status().message()));
  }
  return r;
}

}  // namespace waymesh
