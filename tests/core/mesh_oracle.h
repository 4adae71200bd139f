#pragma once
// An independent geometric oracle over the *source* polygons of a mesh (as imported, before any
// repair), used to check query answers without trusting the compiled map or the query code:
// point coverage with surface height, obstacle crossings of segments, brute-force ray hits.
// Obstacle edges are the declared obstacle edges (Polyanya `-1`) or, when the format declares no
// adjacency, edges not shared by two source polygons (exact-match vertex positions).

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

#include "waymesh/core/vec3.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh::testing {

class MeshOracle {
 public:
  explicit MeshOracle(const SourceMesh& mesh, float cell = 0) : mesh_(mesh) {
    for (const Vec3& v : mesh.vertices) bounds_.Extend(v);
    const float span = std::max(bounds_.max.x - bounds_.min.x, bounds_.max.z - bounds_.min.z);
    cell_ = cell > 0 ? cell : std::max(span / 128.0f, 1e-3f);
    nx_ = int(std::floor((bounds_.max.x - bounds_.min.x) / cell_)) + 1;
    nz_ = int(std::floor((bounds_.max.z - bounds_.min.z) / cell_)) + 1;
    poly_cells_.resize(size_t(nx_) * nz_);
    edge_cells_.resize(size_t(nx_) * nz_);
    for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
      Aabb b;
      for (uint32_t c = mesh.poly_start[p]; c < mesh.poly_start[p + 1]; ++c) {
        b.Extend(mesh.vertices[mesh.poly_verts[c]]);
      }
      ForCells(b, 0, [&](size_t cell) { poly_cells_[cell].push_back(p); });
    }
    FindObstacleEdges();
  }

  const std::vector<std::pair<Vec3, Vec3>>& obstacle_edges() const { return edges_; }

  // Whether plan point (p.x, p.z) lies within `tol` of a source polygon whose surface there is
  // within `max_dy` of p.y.
  bool Covered(Vec3 p, float tol, float max_dy) const {
    const int cx = CellX(p.x), cz = CellZ(p.z);
    if (cx < 0 || cz < 0 || cx >= nx_ || cz >= nz_) return false;
    for (uint32_t poly : poly_cells_[size_t(cz) * nx_ + cx]) {
      if (Inside(poly, p, tol) && std::fabs(HeightIn(poly, p) - p.y) <= max_dy) return true;
    }
    return false;
  }

  // Height of the source surface covering plan point p (within `tol`) closest to `y_ref`, if
  // one is within `max_dy` of it: follows one floor along a path.
  std::optional<float> SurfaceNear(Vec3 p, float tol, float y_ref, float max_dy) const {
    const int cx = CellX(p.x), cz = CellZ(p.z);
    if (cx < 0 || cz < 0 || cx >= nx_ || cz >= nz_) return std::nullopt;
    std::optional<float> best;
    for (uint32_t poly : poly_cells_[size_t(cz) * nx_ + cx]) {
      if (!Inside(poly, p, tol)) continue;
      const float y = HeightIn(poly, p);
      if (std::fabs(y - y_ref) <= max_dy &&
          (!best || std::fabs(y - y_ref) < std::fabs(*best - y_ref))) {
        best = y;
      }
    }
    return best;
  }

  // Whether segment ab crosses an obstacle edge by more than `tol` on both sides.
  bool CrossesObstacle(Vec3 a, Vec3 b, float tol) const {
    bool crossed = false;
    ForSegmentCells(a, b, [&](size_t cell) {
      for (uint32_t e : edge_cells_[cell]) {
        if (!crossed && ProperCross(a, b, edges_[e].first, edges_[e].second, tol)) crossed = true;
      }
    });
    return crossed;
  }

  // Smallest parameter t in [0, 1] where segment ab meets an obstacle edge (plan view), if any;
  // `graze` is set when an obstacle vertex lies within `tol` of the segment (ambiguous hits).
  std::optional<double> FirstObstacleHit(Vec3 a, Vec3 b, float tol, bool* graze) const {
    std::optional<double> best;
    *graze = false;
    ForSegmentCells(a, b, [&](size_t cell) {
      for (uint32_t e : edge_cells_[cell]) {
        const Vec3 c = edges_[e].first, d = edges_[e].second;
        if (SegmentPointDist(a, b, c) < tol || SegmentPointDist(a, b, d) < tol) *graze = true;
        const double den = Cross2(b - a, d - c);
        if (den == 0) continue;
        const double t = Cross2(c - a, d - c) / den;
        const double u = Cross2(c - a, b - a) / den;
        if (t >= 0 && t <= 1 && u >= 0 && u <= 1 && (!best || t < *best)) best = t;
      }
    });
    return best;
  }

 private:
  static double Cross2(Vec3 u, Vec3 v) { return double(u.x) * v.z - double(u.z) * v.x; }

  static float SegmentPointDist(Vec3 a, Vec3 b, Vec3 p) {
    const float dx = b.x - a.x, dz = b.z - a.z;
    const float len_sq = dx * dx + dz * dz;
    float t = len_sq > 0 ? ((p.x - a.x) * dx + (p.z - a.z) * dz) / len_sq : 0;
    t = std::clamp(t, 0.0f, 1.0f);
    return std::hypot(a.x + dx * t - p.x, a.z + dz * t - p.z);
  }

  static bool ProperCross(Vec3 a, Vec3 b, Vec3 c, Vec3 d, float tol) {
    const double lab = std::hypot(b.x - a.x, b.z - a.z), lcd = std::hypot(d.x - c.x, d.z - c.z);
    if (lab == 0 || lcd == 0) return false;
    const double o1 = Cross2(b - a, c - a) / lab, o2 = Cross2(b - a, d - a) / lab;
    const double o3 = Cross2(d - c, a - c) / lcd, o4 = Cross2(d - c, b - c) / lcd;
    return ((o1 > tol && o2 < -tol) || (o1 < -tol && o2 > tol)) &&
           ((o3 > tol && o4 < -tol) || (o3 < -tol && o4 > tol));
  }

  Vec3 Corner(uint32_t p, uint32_t i) const {
    return mesh_.vertices[mesh_.poly_verts[mesh_.poly_start[p] + i]];
  }
  uint32_t Count(uint32_t p) const { return mesh_.poly_start[p + 1] - mesh_.poly_start[p]; }

  // Convex polygon containment with either winding, `tol` outside any edge allowed.
  bool Inside(uint32_t p, Vec3 q, float tol) const {
    const uint32_t n = Count(p);
    double area = 0;
    for (uint32_t i = 0; i < n; ++i) area += Cross2(Corner(p, i), Corner(p, (i + 1) % n));
    const double sign = area >= 0 ? 1 : -1;
    for (uint32_t i = 0; i < n; ++i) {
      const Vec3 a = Corner(p, i), b = Corner(p, (i + 1) % n);
      const double side = sign * Cross2(b - a, q - a);  // distance outside times edge length
      if (side >= 0) continue;
      const double len_sq = double(b.x - a.x) * (b.x - a.x) + double(b.z - a.z) * (b.z - a.z);
      if (side * side > double(tol) * tol * len_sq) return false;
    }
    return true;
  }

  // Surface height of a (fan-triangulated) source polygon at q, from the closest triangle.
  float HeightIn(uint32_t p, Vec3 q) const {
    const uint32_t n = Count(p);
    float best_y = Corner(p, 0).y;
    double best_out = 1e30;
    for (uint32_t i = 1; i + 1 < n; ++i) {
      const Vec3 a = Corner(p, 0), b = Corner(p, i), c = Corner(p, i + 1);
      const double det = Cross2(b - a, c - a);
      if (det == 0) continue;
      const double u = Cross2(q - a, c - a) / det, v = Cross2(b - a, q - a) / det;
      const double w = 1 - u - v;
      const double out = -std::min({u, v, w});
      if (out < best_out) {
        best_out = out;
        best_y = float(w * a.y + u * b.y + v * c.y);
      }
    }
    return best_y;
  }

  void FindObstacleEdges() {
    const bool declared = !mesh_.declared_neighbors.empty();
    std::map<std::tuple<float, float, float, float, float, float>, int> uses;
    auto key = [](Vec3 a, Vec3 b) {
      if (std::tie(b.x, b.y, b.z) < std::tie(a.x, a.y, a.z)) std::swap(a, b);
      return std::make_tuple(a.x, a.y, a.z, b.x, b.y, b.z);
    };
    if (!declared) {
      for (uint32_t p = 0; p < mesh_.polygon_count(); ++p) {
        for (uint32_t i = 0, n = Count(p); i < n; ++i)
          uses[key(Corner(p, i), Corner(p, (i + 1) % n))]++;
      }
    }
    for (uint32_t p = 0; p < mesh_.polygon_count(); ++p) {
      for (uint32_t i = 0, n = Count(p); i < n; ++i) {
        const Vec3 a = Corner(p, i), b = Corner(p, (i + 1) % n);
        const bool wall =
            declared ? mesh_.declared_neighbors[mesh_.poly_start[p] + i] < 0 : uses[key(a, b)] == 1;
        if (!wall) continue;
        const uint32_t e = uint32_t(edges_.size());
        edges_.push_back({a, b});
        Aabb box;
        box.Extend(a);
        box.Extend(b);
        ForCells(box, 1, [&](size_t cell) { edge_cells_[cell].push_back(e); });
      }
    }
  }

  int CellX(float x) const { return int(std::floor((x - bounds_.min.x) / cell_)); }
  int CellZ(float z) const { return int(std::floor((z - bounds_.min.z) / cell_)); }

  // Cells overlapping box b grown by `margin` cells.
  template <typename Fn>
  void ForCells(const Aabb& b, int margin, Fn&& fn) const {
    const int x0 = std::max(CellX(b.min.x) - margin, 0);
    const int x1 = std::min(CellX(b.max.x) + margin, nx_ - 1);
    const int z0 = std::max(CellZ(b.min.z) - margin, 0);
    const int z1 = std::min(CellZ(b.max.z) + margin, nz_ - 1);
    for (int z = z0; z <= z1; ++z) {
      for (int x = x0; x <= x1; ++x) fn(size_t(z) * nx_ + x);
    }
  }

  // Cells along a segment (each cell registers its items with a one-cell margin, so stepping
  // at half a cell never misses one).
  template <typename Fn>
  void ForSegmentCells(Vec3 a, Vec3 b, Fn&& fn) const {
    const float len = std::hypot(b.x - a.x, b.z - a.z);
    const int steps = int(len / (0.5f * cell_)) + 1;
    size_t last = size_t(-1);
    for (int s = 0; s <= steps; ++s) {
      const Vec3 p = Lerp(a, b, float(s) / float(steps));
      const int cx = std::clamp(CellX(p.x), 0, nx_ - 1), cz = std::clamp(CellZ(p.z), 0, nz_ - 1);
      const size_t cell = size_t(cz) * nx_ + cx;
      if (cell != last) fn(cell);
      last = cell;
    }
  }

  const SourceMesh& mesh_;
  Aabb bounds_;
  float cell_ = 1;
  int nx_ = 1, nz_ = 1;
  std::vector<std::vector<uint32_t>> poly_cells_;
  std::vector<std::vector<uint32_t>> edge_cells_;
  std::vector<std::pair<Vec3, Vec3>> edges_;
};

}  // namespace waymesh::testing
