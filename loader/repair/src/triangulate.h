#pragma once
// Splits a simple polygon (any winding, plan view) into triangles in map winding: a fan when
// the polygon is strictly convex, ear clipping otherwise (non-convex, or convex with straight
// corners, where a fan would produce zero-area slivers).

#include <cstdint>
#include <span>
#include <vector>

#include "triangle_soup.h"
#include "waymesh/core/vec3.h"

namespace waymesh::repair {

class PolygonTriangulator {
 public:
  // Appends the triangles of the polygon `corners` (indices into `vertices`; consecutive
  // duplicates are skipped) to `out` and returns how many. A polygon without plan-view area
  // yields none. Reuses internal buffers between calls.
  int Triangulate(std::span<const Vec3> vertices, std::span<const uint32_t> corners,
                  std::vector<Tri>* out);

 private:
  bool IsStrictlyConvex(std::span<const Vec3> vertices) const;
  int EarClip(std::span<const Vec3> vertices, std::vector<Tri>* out);
  bool IsEar(std::span<const Vec3> vertices, uint32_t cur) const;
  void UpdateCorner(std::span<const Vec3> vertices, uint32_t i);

  std::vector<uint32_t> ring_;  // corners (vertex ids) in map winding
  // Ear clipping state per ring position: a linked ring of the corners not yet cut.
  std::vector<uint32_t> prev_, next_;
  std::vector<double> area2_, diagonal_sq_;
  std::vector<uint8_t> is_ear_;
};

}  // namespace waymesh::repair
