#include "degenerate_filter.h"

#include <cmath>
#include <utility>

#include "waymesh/mesh/repair_geometry.h"
#include "waymesh/mesh/tolerances.h"

namespace waymesh::repair {

TriangleDefect ClassifyTriangle(std::span<const Vec3> vertices, const Tri& t) {
  if (t[0] == t[1] || t[1] == t[2] || t[2] == t[0]) return TriangleDefect::kRepeatedVertex;
  const Vec3 a = vertices[t[0]], b = vertices[t[1]], c = vertices[t[2]];
  if (0.5 * std::fabs(Area2XZ(a, b, c)) < tol::kDegenerateArea) return TriangleDefect::kTinyArea;
  if (FloorNormalY(a, b, c) < tol::kMinFloorNormalY) return TriangleDefect::kVertical;
  return TriangleDefect::kNone;
}

uint64_t DropDegenerateTriangles(TriangleSoup* soup) {
  const std::vector<Vec3>& v = soup->vertices;
  return soup->Filter([&v](Tri& t) {
    if (ClassifyTriangle(v, t) != TriangleDefect::kNone) return false;
    if (Area2XZ(v[t[0]], v[t[1]], v[t[2]]) < 0) std::swap(t[1], t[2]);
    return true;
  });
}

}  // namespace waymesh::repair
