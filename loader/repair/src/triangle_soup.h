#pragma once
// The repair pipeline's working mesh: welded vertices and independent triangles in map winding,
// each remembering its area id and the (combined) source polygon it came from.

#include <array>
#include <cstdint>
#include <vector>

#include "waymesh/core/vec3.h"

namespace waymesh::repair {

using Tri = std::array<uint32_t, 3>;

struct TriangleSoup {
  std::vector<Vec3> vertices;
  std::vector<Tri> tris;
  std::vector<uint8_t> area;             // per triangle
  std::vector<uint32_t> source_polygon;  // per triangle, index over all combined sources

  uint32_t triangle_count() const { return uint32_t(tris.size()); }
  void Add(const Tri& t, uint8_t a, uint32_t source) {
    tris.push_back(t);
    area.push_back(a);
    source_polygon.push_back(source);
  }
  // Keeps, in order and with their area and source, the triangles for which keep(Tri&) holds
  // (it may rewrite the triangle it keeps). Returns how many were removed.
  template <typename Keep>
  uint64_t Filter(Keep keep) {
    size_t kept = 0;
    for (size_t i = 0; i < tris.size(); ++i) {
      Tri t = tris[i];
      if (!keep(t)) continue;
      tris[kept] = t;
      area[kept] = area[i];
      source_polygon[kept] = source_polygon[i];
      ++kept;
    }
    const uint64_t removed = tris.size() - kept;
    tris.resize(kept);
    area.resize(kept);
    source_polygon.resize(kept);
    return removed;
  }
};

// Half-edge h = 3 * t + k runs from corner k of triangle t to corner (k + 1) % 3.
inline uint32_t HalfEdgeFrom(const TriangleSoup& s, uint32_t h) { return s.tris[h / 3][h % 3]; }
inline uint32_t HalfEdgeTo(const TriangleSoup& s, uint32_t h) {
  return s.tris[h / 3][(h % 3 + 1) % 3];
}

}  // namespace waymesh::repair
