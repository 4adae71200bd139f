#include "poly_geometry.h"

#include <algorithm>
#include <cmath>

#include "waymesh/core/tolerances.h"

namespace waymesh::internal {

int FindCorner(const TileView& tile, uint32_t poly, Vec3 v) {
  for (uint32_t i = 0, n = tile.corner_count(poly); i < n; ++i) {
    const Vec3 c = tile.corner(poly, i);
    if (c.x == v.x && c.z == v.z && c.y == v.y) return int(i);
  }
  return -1;
}

bool PointInPolyXZ(const TileView& tile, uint32_t poly, Vec3 p, float tolerance) {
  const uint32_t n = tile.corner_count(poly);
  Vec3 a = tile.corner(poly, n - 1);
  for (uint32_t i = 0; i < n; ++i) {
    const Vec3 b = tile.corner(poly, i);
    // Signed distance of p to the left (inside) of edge a->b, times the edge length.
    const float area = TriArea2XZ(a, b, p);
    if (area < 0) {
      const float len = std::sqrt(DistSqXZ(a, b));
      if (area < -tolerance * len) return false;
    }
    a = b;
  }
  return true;
}

float SeparationSqXZ(const TileView& tile, uint32_t poly, Vec3 p) {
  const uint32_t n = tile.corner_count(poly);
  const uint32_t first = tile.poly_start[poly];
  float most = 0;
  Vec3 a = tile.vertices[tile.poly_verts[first + n - 1]];
  float min_x = a.x, max_x = a.x, min_z = a.z, max_z = a.z;
  for (uint32_t i = 0; i < n; ++i) {
    const Vec3 b = tile.vertices[tile.poly_verts[first + i]];
    const float area = TriArea2XZ(a, b, p);
    if (area < 0) {
      const float len_sq = DistSqXZ(a, b);
      if (len_sq > 0) most = std::max(most, area * area / len_sq);
    }
    min_x = std::min(min_x, b.x), max_x = std::max(max_x, b.x);
    min_z = std::min(min_z, b.z), max_z = std::max(max_z, b.z);
    a = b;
  }
  // The distance to the polygon's box bounds it too. Without it a sliver (a polygon of almost
  // no area along a straight wall) would look as if it held every point of its line, however
  // far beyond its ends: the edge lines of a sliver are nearly one line.
  const float dx = std::max({min_x - p.x, p.x - max_x, 0.0f});
  const float dz = std::max({min_z - p.z, p.z - max_z, 0.0f});
  return std::max(most, dx * dx + dz * dz);
}

Vec3 ClosestPointInPolyXZ(const TileView& tile, uint32_t poly, Vec3 p, float separation_sq) {
  if (separation_sq <= tol::kInsidePolygon * tol::kInsidePolygon) return p;
  const uint32_t n = tile.corner_count(poly);
  const uint32_t first = tile.poly_start[poly];
  float best_sq = INFINITY;
  Vec3 best = p;
  Vec3 a = tile.vertices[tile.poly_verts[first + n - 1]];
  for (uint32_t i = 0; i < n; ++i) {
    const Vec3 b = tile.vertices[tile.poly_verts[first + i]];
    const Vec3 q = Lerp(a, b, ClosestParamXZ(a, b, p));
    const float d = DistSqXZ(q, p);
    if (d < best_sq) {
      best_sq = d;
      best = q;
    }
    a = b;
  }
  return Vec3{best.x, p.y, best.z};
}

namespace {

// Barycentric weights of (x, z) in triangle abc (plan view); false for a degenerate triangle.
bool Barycentric(Vec3 a, Vec3 b, Vec3 c, float x, float z, float* wa, float* wb, float* wc) {
  const double det = double(b.x - a.x) * (c.z - a.z) - double(c.x - a.x) * (b.z - a.z);
  if (std::fabs(det) < 1e-12) return false;
  const double px = double(x) - a.x, pz = double(z) - a.z;
  const double u = (px * (c.z - a.z) - (c.x - a.x) * pz) / det;
  const double v = (double(b.x - a.x) * pz - px * (b.z - a.z)) / det;
  *wb = float(u);
  *wc = float(v);
  *wa = float(1.0 - u - v);
  return true;
}

// Whether (x, z) is inside triangle abc or on its border (plan view, either winding): the
// signs of its three edge functions, without the divisions of Barycentric.
bool InTriangleXZ(Vec3 a, Vec3 b, Vec3 c, float x, float z) {
  const Vec3 p{x, 0, z};
  const double ab = TriArea2XZ(a, b, p), bc = TriArea2XZ(b, c, p), ca = TriArea2XZ(c, a, p);
  return (ab >= 0 && bc >= 0 && ca >= 0) || (ab <= 0 && bc <= 0 && ca <= 0);
}

}  // namespace

float PolyHeightAt(const TileView& tile, uint32_t poly, float x, float z) {
  // Nearly always (x, z) is inside one detail triangle: find it by signs alone first.
  for (const DetailTri& tri : tile.detail(poly)) {
    const Vec3 a = tile.corner(poly, tri.a);
    const Vec3 b = tile.corner(poly, tri.b);
    const Vec3 c = tile.corner(poly, tri.c);
    float wa, wb, wc;
    if (InTriangleXZ(a, b, c, x, z) && Barycentric(a, b, c, x, z, &wa, &wb, &wc) &&
        std::min(wa, std::min(wb, wc)) >= 0) {
      return wa * a.y + wb * b.y + wc * c.y;
    }
  }
  float best_min = -INFINITY;
  float best_y = tile.corner(poly, 0).y;
  for (const DetailTri& tri : tile.detail(poly)) {
    const Vec3 a = tile.corner(poly, tri.a);
    const Vec3 b = tile.corner(poly, tri.b);
    const Vec3 c = tile.corner(poly, tri.c);
    float wa, wb, wc;
    if (!Barycentric(a, b, c, x, z, &wa, &wb, &wc)) continue;
    const float lowest = std::min(wa, std::min(wb, wc));
    if (lowest >= 0) return wa * a.y + wb * b.y + wc * c.y;
    if (lowest > best_min) {
      // Outside every triangle so far: keep the least-outside one, clamped onto it.
      best_min = lowest;
      wa = std::max(wa, 0.0f);
      wb = std::max(wb, 0.0f);
      wc = std::max(wc, 0.0f);
      const float sum = wa + wb + wc;
      best_y = (wa * a.y + wb * b.y + wc * c.y) / sum;
    }
  }
  return best_y;
}

double PolyAreaXZ(const TileView& tile, uint32_t poly) {
  const uint32_t n = tile.corner_count(poly);
  const Vec3 o = tile.corner(poly, 0);
  double sum = 0;
  for (uint32_t i = 1; i + 1 < n; ++i) {
    sum += TriArea2XZ(o, tile.corner(poly, i), tile.corner(poly, i + 1));
  }
  return 0.5 * sum;
}

Vec3 PolyCentroid(const TileView& tile, uint32_t poly) {
  // Triangles of a fan around corner 0, weighted by area; relative to corner 0 for precision.
  const uint32_t n = tile.corner_count(poly);
  const Vec3 o = tile.corner(poly, 0);
  double sum = 0, x = 0, z = 0;
  for (uint32_t i = 1; i + 1 < n; ++i) {
    const Vec3 b = tile.corner(poly, i), c = tile.corner(poly, i + 1);
    const double a2 = TriArea2XZ(o, b, c);
    sum += a2;
    x += a2 * (double(b.x - o.x) + double(c.x - o.x)) / 3;
    z += a2 * (double(b.z - o.z) + double(c.z - o.z)) / 3;
  }
  Vec3 p = o;
  if (sum > 0) {
    p.x = float(o.x + x / sum);
    p.z = float(o.z + z / sum);
  }
  p.y = PolyHeightAt(tile, poly, p.x, p.z);
  return p;
}

namespace {

// Twice the 3D area of a detail triangle: uniform "by area" means by surface area, matching
// TileView::area_prefix.
float DetailArea2(const TileView& tile, uint32_t poly, const DetailTri& t) {
  const Vec3 a = tile.corner(poly, t.a);
  return Length(Cross(tile.corner(poly, t.b) - a, tile.corner(poly, t.c) - a));
}

}  // namespace

Vec3 SamplePolySurface(const TileView& tile, uint32_t poly, float u_tri, float u, float v) {
  const auto tris = tile.detail(poly);
  double total = 0;
  for (const DetailTri& t : tris) total += DetailArea2(tile, poly, t);
  const double target = double(u_tri) * total;
  size_t pick = tris.size() - 1;
  double run = 0;
  for (size_t i = 0; i < tris.size(); ++i) {
    run += DetailArea2(tile, poly, tris[i]);
    if (target < run) {
      pick = i;
      break;
    }
  }
  const DetailTri& t = tris[pick];
  const Vec3 a = tile.corner(poly, t.a), b = tile.corner(poly, t.b), c = tile.corner(poly, t.c);
  // Square-root warp: uniform over the triangle.
  const float su = std::sqrt(u);
  const float wa = 1 - su, wb = su * (1 - v), wc = su * v;
  return a * wa + b * wb + c * wc;
}

}  // namespace waymesh::internal
