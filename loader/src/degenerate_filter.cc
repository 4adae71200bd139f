#include "degenerate_filter.h"

#include <cmath>
#include <utility>

#include "repair_geometry.h"
#include "waymesh/loader/tolerances.h"

namespace waymesh::repair {

TriangleDefect ClassifyTriangle(std::span<const Vec3> vertices, const Tri& t) {
  if (t[0] == t[1] || t[1] == t[2] || t[2] == t[0]) return TriangleDefect::kRepeatedVertex;
  const Vec3 a = vertices[t[0]], b = vertices[t[1]], c = vertices[t[2]];
  if (0.5 * std::fabs(Area2XZ(a, b, c)) < tol::kDegenerateArea) return TriangleDefect::kTinyArea;
  if (FloorNormalY(a, b, c) < tol::kMinFloorNormalY) return TriangleDefect::kVertical;
  return TriangleDefect::kNone;
}

uint64_t DropDegenerateTriangles(TriangleSoup* soup) {
  size_t kept = 0;
  for (size_t i = 0; i < soup->tris.size(); ++i) {
    Tri t = soup->tris[i];
    if (ClassifyTriangle(soup->vertices, t) != TriangleDefect::kNone) continue;
    if (Area2XZ(soup->vertices[t[0]], soup->vertices[t[1]], soup->vertices[t[2]]) < 0) {
      std::swap(t[1], t[2]);
    }
    soup->tris[kept] = t;
    soup->area[kept] = soup->area[i];
    soup->source_polygon[kept] = soup->source_polygon[i];
    ++kept;
  }
  const uint64_t dropped = soup->tris.size() - kept;
  soup->tris.resize(kept);
  soup->area.resize(kept);
  soup->source_polygon.resize(kept);
  return dropped;
}

}  // namespace waymesh::repair
