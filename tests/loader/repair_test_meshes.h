#pragma once
// Small synthetic SourceMesh builders for the repair tests.

#include <array>
#include <cmath>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "waymesh/mesh/source_mesh.h"
#include "waymesh/repair/repair.h"

namespace waymesh::testing {

using Triangle = std::array<Vec3, 3>;

// Unity-style export: every triangle has its own three vertex copies.
inline SourceMesh TriangleSoupMesh(const std::vector<Triangle>& tris, std::string origin = "soup") {
  SourceMesh m;
  m.origin = std::move(origin);
  for (const Triangle& t : tris) {
    const uint32_t base = uint32_t(m.vertices.size());
    m.vertices.insert(m.vertices.end(), t.begin(), t.end());
    m.AddPolygon({base, base + 1, base + 2});
  }
  return m;
}

// Indexed polygon mesh.
inline SourceMesh PolygonMesh(std::vector<Vec3> vertices,
                              std::initializer_list<std::initializer_list<uint32_t>> polys,
                              std::string origin = "polys") {
  SourceMesh m;
  m.origin = std::move(origin);
  m.vertices = std::move(vertices);
  for (auto p : polys) m.AddPolygon(p);
  return m;
}

// nx x nz quads of `cell` metres from (x0, z0), two triangles each, heights from `height`,
// vertices duplicated per triangle like a Unity export.
inline SourceMesh GridSoup(int nx, int nz, float cell, float x0 = 0, float z0 = 0,
                           std::function<float(float, float)> height = nullptr,
                           std::string origin = "grid") {
  std::vector<Triangle> tris;
  auto at = [&](int i, int j) {
    const float x = x0 + i * cell, z = z0 + j * cell;
    return Vec3{x, height ? height(x, z) : 0.0f, z};
  };
  for (int j = 0; j < nz; ++j) {
    for (int i = 0; i < nx; ++i) {
      tris.push_back({at(i, j), at(i + 1, j), at(i + 1, j + 1)});
      tris.push_back({at(i, j), at(i + 1, j + 1), at(i, j + 1)});
    }
  }
  return TriangleSoupMesh(tris, std::move(origin));
}

inline absl::StatusOr<RepairedMesh> Repair(const SourceMesh& m, const RepairOptions& o = {},
                                           RepairReport* report = nullptr) {
  return RepairMeshes(std::span<const SourceMesh>(&m, 1), o, report);
}

inline RepairOptions NoMerge() {
  RepairOptions o;
  o.merge = false;
  return o;
}

inline RepairOptions TrianglesOnly() {
  RepairOptions o;
  o.max_verts_per_poly = 3;
  return o;
}

// Number of polygon edges without a neighbour.
inline int WallEdges(const RepairedMesh& m) {
  int walls = 0;
  for (int64_t n : m.poly_neighbors) walls += n < 0;
  return walls;
}

// Neighbours of polygon p that are not walls.
inline std::vector<int64_t> NeighboursOf(const RepairedMesh& m, uint32_t p) {
  std::vector<int64_t> out;
  for (uint32_t c = m.poly_start[p]; c < m.poly_start[p + 1]; ++c) {
    if (m.poly_neighbors[c] >= 0) out.push_back(m.poly_neighbors[c]);
  }
  return out;
}

// Corner i of polygon p.
inline Vec3 CornerOf(const RepairedMesh& m, uint32_t p, uint32_t i) {
  return m.vertices[m.poly_verts[m.poly_start[p] + i]];
}

// Distance from p to segment ab (3D).
inline double DistanceToSegment(Vec3 p, Vec3 a, Vec3 b) {
  const Vec3 d = b - a;
  const double len_sq = double(Dot(d, d));
  double t = len_sq > 0 ? double(Dot(p - a, d)) / len_sq : 0;
  t = std::fmax(0.0, std::fmin(1.0, t));
  const double x = a.x + t * d.x - p.x, y = a.y + t * d.y - p.y, z = a.z + t * d.z - p.z;
  return std::sqrt(x * x + y * y + z * z);
}

// For a mesh repaired with merge = false: every output edge lies on an edge of its source
// polygon, and its neighbour (mapped back through source_polygon) is the one the source
// declares for that edge. Returns one line per mismatch (at most `limit`).
inline std::vector<std::string> DeclaredAdjacencyMismatches(const RepairedMesh& m,
                                                            const SourceMesh& src,
                                                            size_t limit = 20) {
  std::vector<std::string> out;
  constexpr double kOnEdge = 1e-3;
  if (m.source_polygon.size() != m.polygon_count()) return {"source_polygon not filled"};
  for (uint32_t p = 0; p < m.polygon_count() && out.size() < limit; ++p) {
    const uint32_t s = m.source_polygon[p];
    const uint32_t sb = src.poly_start[s], sn = src.poly_start[s + 1] - sb;
    const uint32_t n = m.corner_count(p);
    for (uint32_t i = 0; i < n; ++i) {
      const Vec3 u = CornerOf(m, p, i), v = CornerOf(m, p, (i + 1) % n);
      int64_t expected = -2;
      for (uint32_t j = 0; j < sn; ++j) {
        const Vec3 a = src.vertices[src.poly_verts[sb + j]];
        const Vec3 b = src.vertices[src.poly_verts[sb + (j + 1) % sn]];
        if (DistanceToSegment(u, a, b) < kOnEdge && DistanceToSegment(v, a, b) < kOnEdge) {
          expected = src.declared_neighbors[sb + j];
          break;
        }
      }
      const int64_t nb = m.poly_neighbors[m.poly_start[p] + i];
      const int64_t actual = nb < 0 ? -1 : int64_t{m.source_polygon[nb]};
      if (expected != actual) {
        out.push_back("polygon " + std::to_string(p) + " (source " + std::to_string(s) + ") edge " +
                      std::to_string(i) + ": declared " + std::to_string(expected) + ", built " +
                      std::to_string(actual));
      }
    }
  }
  return out;
}

}  // namespace waymesh::testing
