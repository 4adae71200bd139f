#pragma once
// Plan-view geometry on one polygon of a tile: containment, closest points and exact surface
// heights from the polygon's detail triangles. Polygons are convex in plan view with the map's
// winding (TriArea2XZ of consecutive corners > 0).

#include <cstdint>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/vec3.h"

namespace waymesh::internal {

// Squared plan-view distance.
inline float DistSqXZ(Vec3 a, Vec3 b) {
  const float dx = a.x - b.x, dz = a.z - b.z;
  return dx * dx + dz * dz;
}

// Twice the signed plan-view area of abc (> 0 in the map's winding), in double: the products
// of float differences are exact there, so decisions do not depend on rounding order.
inline double Area2XZ(Vec3 a, Vec3 b, Vec3 c) {
  return (double(b.x) - a.x) * (double(c.z) - a.z) - (double(c.x) - a.x) * (double(b.z) - a.z);
}

// Parameter in [0, 1] of the point of segment ab closest to p (plan view).
inline float ClosestParamXZ(Vec3 a, Vec3 b, Vec3 p) {
  const float dx = b.x - a.x, dz = b.z - a.z;
  const float len_sq = dx * dx + dz * dz;
  if (len_sq <= 0) return 0;
  const float t = ((p.x - a.x) * dx + (p.z - a.z) * dz) / len_sq;
  return t < 0 ? 0 : (t > 1 ? 1 : t);
}

// Corner index of polygon `poly` at exactly the position of `v` (a vertex it shares with a
// neighbour), or -1.
int FindCorner(const TileView& tile, uint32_t poly, Vec3 v);

// True when (p.x, p.z) is inside polygon `poly` or within `tolerance` metres of it.
bool PointInPolyXZ(const TileView& tile, uint32_t poly, Vec3 p, float tolerance);

// A lower bound of the squared plan-view distance from p to the (convex) polygon: the largest
// squared distance to the line of an edge p lies outside of, or to the polygon's bounding box;
// 0 when p is inside. One pass of cross products, so a nearest-polygon search can drop far
// candidates cheaply.
float SeparationSqXZ(const TileView& tile, uint32_t poly, Vec3 p);

// The plan-view point of the polygon closest to p; y is left as p.y. `separation_sq` is
// SeparationSqXZ(tile, poly, p): within tol::kInsidePolygon, p is inside and its own answer.
Vec3 ClosestPointInPolyXZ(const TileView& tile, uint32_t poly, Vec3 p, float separation_sq);

// Surface height of the polygon at plan point (x, z) from its detail triangles; points just
// outside use the nearest triangle's clamped plane.
float PolyHeightAt(const TileView& tile, uint32_t poly, float x, float z);

// The surface point of the polygon closest to p in plan view.
inline Vec3 ClosestPointOnPoly(const TileView& tile, uint32_t poly, Vec3 p) {
  Vec3 q = ClosestPointInPolyXZ(tile, poly, p, SeparationSqXZ(tile, poly, p));
  q.y = PolyHeightAt(tile, poly, q.x, q.z);
  return q;
}

// Plan-view area of the polygon (m²).
double PolyAreaXZ(const TileView& tile, uint32_t poly);

// The polygon's plan-view area centroid, at the surface height there.
Vec3 PolyCentroid(const TileView& tile, uint32_t poly);

// Uniform random surface point of the polygon by surface area, from a uniform in [0, 1)
// choosing the detail triangle and two placing the point in it.
Vec3 SamplePolySurface(const TileView& tile, uint32_t poly, float u_tri, float u, float v);

}  // namespace waymesh::internal
