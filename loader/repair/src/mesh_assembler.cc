#include "mesh_assembler.h"

#include <algorithm>

#include "edge_pairing.h"
#include "waymesh/mesh/repair_geometry.h"

namespace waymesh::repair {
namespace {

// Index of the corner to start polygon p at: the source's first corner when kept.
uint32_t FirstCorner(const AssemblyInput& in, uint32_t p) {
  if (!in.keep_sources) return 0;
  const MergedPolygons& m = *in.polygons;
  const uint32_t source = in.soup->source_polygon[m.tris[m.tri_start[p]]];
  const uint32_t first = in.source_first_vertex[source];
  const uint32_t begin = m.poly_start[p], end = m.poly_start[p + 1];
  for (uint32_t c = begin; c < end; ++c) {
    if (m.corners[c] == first) return c - begin;
  }
  return 0;
}

// Tile of a kept source polygon: the cell of its area-weighted plan-view centroid.
uint32_t KeptPolygonTile(const AssemblyInput& in, uint32_t p) {
  const MergedPolygons& m = *in.polygons;
  double sx = 0, sz = 0, sa = 0;
  for (uint32_t i = m.tri_start[p]; i < m.tri_start[p + 1]; ++i) {
    const Tri& t = in.soup->tris[m.tris[i]];
    const Vec3 a = in.soup->vertices[t[0]], b = in.soup->vertices[t[1]],
               c = in.soup->vertices[t[2]];
    const double w = Area2XZ(a, b, c);
    sx += w * (double(a.x) + b.x + c.x) / 3;
    sz += w * (double(a.z) + b.z + c.z) / 3;
    sa += w;
  }
  return in.grid->TileOf(sx / sa, sz / sa);
}

class Assembler {
 public:
  Assembler(const AssemblyInput& in, RepairedMesh* mesh)
      : in_(in), mesh_(mesh), new_vertex_(in.soup->vertices.size(), UINT32_MAX) {}

  AssemblyResult Run() {
    const MergedPolygons& m = *in_.polygons;
    const uint32_t polys = m.polygon_count();
    mesh_->poly_verts.reserve(m.corners.size());
    mesh_->poly_neighbors.reserve(m.corners.size());
    mesh_->detail_tris.reserve(m.tris.size());
    for (uint32_t p = 0; p < polys; ++p) AddPolygon(p);
    return result_;
  }

 private:
  uint32_t VertexId(uint32_t v) {
    if (new_vertex_[v] == UINT32_MAX) {
      new_vertex_[v] = uint32_t(mesh_->vertices.size());
      mesh_->vertices.push_back(in_.soup->vertices[v]);
    }
    return new_vertex_[v];
  }

  void AddPolygon(uint32_t p) {
    const MergedPolygons& m = *in_.polygons;
    const uint32_t begin = m.poly_start[p], n = m.poly_start[p + 1] - begin;
    const uint32_t first = FirstCorner(in_, p);
    ring_.clear();
    for (uint32_t k = 0; k < n; ++k) {
      const uint32_t c = begin + (first + k) % n;
      ring_.push_back(m.corners[c]);
      mesh_->poly_verts.push_back(VertexId(m.corners[c]));
      const uint32_t twin = in_.twin[m.edges[c]];
      mesh_->poly_neighbors.push_back(twin == kNoTwin ? -1 : int64_t{m.poly_of_tri[twin / 3]});
    }
    mesh_->poly_start.push_back(uint32_t(mesh_->poly_verts.size()));
    const uint32_t tri0 = m.tris[m.tri_start[p]];
    mesh_->poly_area.push_back(in_.soup->area[tri0]);
    mesh_->poly_flags.push_back(kWalkFlag);
    const uint32_t tile = in_.keep_sources ? KeptPolygonTile(in_, p) : in_.tri_tile[tri0];
    mesh_->poly_tile.push_back(tile);
    if (in_.keep_sources) mesh_->source_polygon.push_back(in_.soup->source_polygon[tri0]);
    AddDetail(p);
    for (uint32_t v : ring_) {
      const Vec3 q = in_.soup->vertices[v];
      result_.max_tile_overhang =
          std::max(result_.max_tile_overhang, float(in_.grid->Overhang(tile, q.x, q.z)));
    }
  }

  void AddDetail(uint32_t p) {
    const MergedPolygons& m = *in_.polygons;
    double area = 0;
    for (uint32_t i = m.tri_start[p]; i < m.tri_start[p + 1]; ++i) {
      const Tri& t = in_.soup->tris[m.tris[i]];
      DetailTri d{CornerOf(t[0]), CornerOf(t[1]), CornerOf(t[2]), 0};
      mesh_->detail_tris.push_back(d);
      area +=
          SurfaceArea(in_.soup->vertices[t[0]], in_.soup->vertices[t[1]], in_.soup->vertices[t[2]]);
    }
    result_.poly_surface_area.push_back(area);
    result_.walkable_area += area;
  }

  uint8_t CornerOf(uint32_t v) const {
    return uint8_t(std::find(ring_.begin(), ring_.end(), v) - ring_.begin());
  }

  const AssemblyInput& in_;
  RepairedMesh* mesh_;
  std::vector<uint32_t> new_vertex_;
  std::vector<uint32_t> ring_;  // current polygon's corners (soup vertex ids)
  AssemblyResult result_;
};

}  // namespace

AssemblyResult AssembleMesh(const AssemblyInput& in, RepairedMesh* mesh) {
  return Assembler(in, mesh).Run();
}

}  // namespace waymesh::repair
