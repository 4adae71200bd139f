#pragma once
// The surface area of a polygon's detail triangles, as a carved tile's area prefix sums it.
// One function for carving and for the base tiles' per-polygon areas computed once per map, so
// that a polygon spliced from the base adds exactly the bits it would have computed.

#include <span>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/vec3.h"

namespace waymesh::obstacles {

// Area (m²) of `tris` over the polygon corners `pts`.
inline double SurfaceArea(std::span<const Vec3> pts, std::span<const DetailTri> tris) {
  double area = 0;
  for (const DetailTri& t : tris) {
    const Vec3 a = pts[t.a];
    area += 0.5 * double(Length(Cross(pts[t.b] - a, pts[t.c] - a)));
  }
  return area;
}

}  // namespace waymesh::obstacles
