#include "t_junction_splitter.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "edge_table.h"
#include "plan_grid.h"
#include "triangulate.h"
#include "waymesh/mesh/repair_geometry.h"

namespace waymesh::repair {
namespace {

// A vertex that splits the boundary half-edge `half_edge` at parameter t in (0, 1).
struct Split {
  uint32_t half_edge;
  double t;
  uint32_t vertex;
  friend bool operator<(const Split& a, const Split& b) {
    if (a.half_edge != b.half_edge) return a.half_edge < b.half_edge;
    if (a.t != b.t) return a.t < b.t;
    return a.vertex < b.vertex;
  }
};

std::vector<uint32_t> BoundaryHalfEdges(const TriangleSoup& soup) {
  const EdgeGroups groups = GroupHalfEdges(soup);
  std::vector<uint32_t> boundary;
  for (uint32_t g = 0; g < groups.group_count(); ++g) {
    if (groups.group(g).size() == 1) boundary.push_back(groups.group(g)[0]);
  }
  std::sort(boundary.begin(), boundary.end());
  return boundary;
}

// Parameter of v along a->b when v is within `tolerance` of the segment's interior and
// farther than `tolerance` from both ends; negative otherwise.
double SplitParameter(Vec3 a, Vec3 b, Vec3 v, double tolerance) {
  const double dx = double(b.x) - a.x, dy = double(b.y) - a.y, dz = double(b.z) - a.z;
  const double len_sq = dx * dx + dy * dy + dz * dz;
  if (len_sq <= 4 * tolerance * tolerance) return -1;
  const double t =
      ((double(v.x) - a.x) * dx + (double(v.y) - a.y) * dy + (double(v.z) - a.z) * dz) / len_sq;
  if (t <= 0 || t >= 1) return -1;
  const double tol_sq = tolerance * tolerance;
  if (DistanceSq(v, a) <= tol_sq || DistanceSq(v, b) <= tol_sq) return -1;
  const double px = a.x + t * dx - v.x, py = a.y + t * dy - v.y, pz = a.z + t * dz - v.z;
  return px * px + py * py + pz * pz <= tol_sq ? t : -1;
}

std::vector<Split> FindSplits(const TriangleSoup& soup, std::span<const uint32_t> boundary,
                              float tolerance) {
  std::vector<PlanBox> boxes(boundary.size());
  std::vector<uint8_t> candidate(soup.vertices.size(), 0);
  double total_length = 0;
  for (size_t i = 0; i < boundary.size(); ++i) {
    const uint32_t a = HalfEdgeFrom(soup, boundary[i]), b = HalfEdgeTo(soup, boundary[i]);
    const Vec3 p = soup.vertices[a], q = soup.vertices[b];
    boxes[i] = {std::min(p.x, q.x) - tolerance, std::min(p.z, q.z) - tolerance,
                std::max(p.x, q.x) + tolerance, std::max(p.z, q.z) + tolerance};
    candidate[a] = candidate[b] = 1;
    total_length += DistanceXZ(p, q);
  }
  PlanGrid grid;
  grid.Build(boxes, boundary.empty() ? 1.0 : 2 * total_length / boundary.size());
  std::vector<Split> splits;
  for (uint32_t v = 0; v < soup.vertices.size(); ++v) {
    if (!candidate[v]) continue;
    const Vec3 p = soup.vertices[v];
    for (uint32_t i : grid.ItemsAt(p.x, p.z)) {
      const uint32_t a = HalfEdgeFrom(soup, boundary[i]), b = HalfEdgeTo(soup, boundary[i]);
      if (a == v || b == v) continue;
      const double t = SplitParameter(soup.vertices[a], soup.vertices[b], p, tolerance);
      if (t > 0) splits.push_back({boundary[i], t, v});
    }
  }
  std::sort(splits.begin(), splits.end());
  return splits;
}

// Fans the ring (a triangle's corners plus split vertices on one edge) from `apex`, the corner
// opposite the split edge. Fails when a piece would not be in map winding.
bool FanFromOppositeCorner(std::span<const Vec3> vertices, std::span<const uint32_t> ring,
                           uint32_t apex, std::vector<Tri>* out) {
  const size_t n = ring.size();
  const size_t at = std::find(ring.begin(), ring.end(), apex) - ring.begin();
  for (size_t i = 1; i + 1 < n; ++i) {
    const Tri piece{apex, ring[(at + i) % n], ring[(at + i + 1) % n]};
    if (Area2XZ(vertices[piece[0]], vertices[piece[1]], vertices[piece[2]]) <=
        2.0 * tol::kDegenerateArea) {
      return false;
    }
    out->push_back(piece);
  }
  return true;
}

// Replaces triangles that have splits by the triangulation of the polygon made of their
// corners and split vertices; keeps every other triangle in place.
void ApplySplits(std::span<const Split> splits, TriangleSoup* soup) {
  TriangleSoup out;
  out.vertices = std::move(soup->vertices);
  out.tris.reserve(soup->tris.size() + 2 * splits.size());
  out.area.reserve(out.tris.capacity());
  out.source_polygon.reserve(out.tris.capacity());
  PolygonTriangulator triangulator;
  std::vector<uint32_t> ring;
  std::vector<Tri> pieces;
  size_t next = 0;
  for (uint32_t t = 0; t < soup->tris.size(); ++t) {
    const Tri& tri = soup->tris[t];
    if (next == splits.size() || splits[next].half_edge / 3 != t) {
      out.Add(tri, soup->area[t], soup->source_polygon[t]);
      continue;
    }
    ring.clear();
    int split_edges = 0;
    uint32_t last_split_edge = 0;
    for (uint32_t k = 0; k < 3; ++k) {
      ring.push_back(tri[k]);
      if (next < splits.size() && splits[next].half_edge == 3 * t + k) {
        ++split_edges;
        last_split_edge = k;
      }
      for (; next < splits.size() && splits[next].half_edge == 3 * t + k; ++next) {
        if (ring.back() != splits[next].vertex) ring.push_back(splits[next].vertex);
      }
    }
    pieces.clear();
    // Splits on one edge (the usual seam) fan from the opposite corner in linear time; the
    // general case is a small polygon for the ear clipper.
    if (split_edges != 1 ||
        !FanFromOppositeCorner(out.vertices, ring, tri[(last_split_edge + 2) % 3], &pieces)) {
      pieces.clear();
      triangulator.Triangulate(out.vertices, ring, &pieces);
    }
    for (const Tri& piece : pieces) out.Add(piece, soup->area[t], soup->source_polygon[t]);
  }
  *soup = std::move(out);
}

}  // namespace

uint64_t SplitTJunctions(float tolerance, TriangleSoup* soup) {
  const std::vector<uint32_t> boundary = BoundaryHalfEdges(*soup);
  if (boundary.empty()) return 0;
  const std::vector<Split> splits = FindSplits(*soup, boundary, tolerance);
  if (splits.empty()) return 0;
  ApplySplits(splits, soup);
  return splits.size();
}

}  // namespace waymesh::repair
