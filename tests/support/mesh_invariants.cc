#include "support/mesh_invariants.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace waymesh::testing {
namespace {

constexpr size_t kMaxReported = 40;
constexpr double kRelativeAreaTolerance = 1e-6;
// Float rounding of corner positions against grid lines (metres).
constexpr double kOverhangSlack = 1e-3;

double Area2(Vec3 a, Vec3 b, Vec3 c) {
  return (double(b.x) - a.x) * (double(c.z) - a.z) - (double(c.x) - a.x) * (double(b.z) - a.z);
}

double Surface(Vec3 a, Vec3 b, Vec3 c) {
  const double ux = double(b.x) - a.x, uy = double(b.y) - a.y, uz = double(b.z) - a.z;
  const double vx = double(c.x) - a.x, vy = double(c.y) - a.y, vz = double(c.z) - a.z;
  const double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  return 0.5 * std::sqrt(nx * nx + ny * ny + nz * nz);
}

// The sum of `triangle(o, b, c)` over the fan of source polygon `p` from its first corner `o`.
template <typename Triangle>
double FanSum(const SourceMesh& source, uint32_t p, Triangle triangle) {
  const uint32_t begin = source.poly_start[p], end = source.poly_start[p + 1];
  const Vec3 o = source.vertices[source.poly_verts[begin]];
  double sum = 0;
  for (uint32_t c = begin + 1; c + 1 < end; ++c) {
    sum += triangle(o, source.vertices[source.poly_verts[c]],
                    source.vertices[source.poly_verts[c + 1]]);
  }
  return sum;
}

bool NearlyEqual(double a, double b, double rel) {
  return std::fabs(a - b) <= rel * std::max({std::fabs(a), std::fabs(b), 1e-9});
}

class Checker {
 public:
  Checker(const RepairedMesh& m, const InvariantOptions& o) : m_(m), o_(o) {}

  std::vector<std::string> Run() {
    if (!CheckShapes()) return std::move(errors_);
    for (uint32_t p = 0; p < m_.polygon_count(); ++p) {
      CheckPolygon(p);
      CheckDetail(p);
      CheckNeighbours(p);
      CheckTile(p);
    }
    CheckEdgeSides();
    CheckBoundaryLoops();
    CheckIslands();
    CheckInfo();
    return std::move(errors_);
  }

 private:
  template <typename... Args>
  void Fail(const Args&... args) {
    if (errors_.size() < kMaxReported) errors_.push_back(absl::StrCat(args...));
  }
  Vec3 Corner(uint32_t p, uint32_t i) const {
    return m_.vertices[m_.poly_verts[m_.poly_start[p] + i]];
  }

  bool CheckShapes() {
    const size_t polys = m_.poly_start.size() - 1;
    if (m_.poly_start.empty() || m_.poly_start[0] != 0 ||
        m_.poly_start.back() != m_.poly_verts.size()) {
      Fail("poly_start does not span poly_verts");
      return false;
    }
    if (m_.poly_neighbors.size() != m_.poly_verts.size() || m_.poly_area.size() != polys ||
        m_.poly_flags.size() != polys || m_.poly_tile.size() != polys ||
        m_.poly_island.size() != polys ||
        m_.detail_tris.size() + 2 * polys != m_.poly_verts.size() ||
        (!m_.source_polygon.empty() && m_.source_polygon.size() != polys)) {
      Fail("array lengths disagree with poly_start");
      return false;
    }
    if (polys == 0) Fail("mesh has no polygons");
    std::vector<uint8_t> used(m_.vertices.size(), 0);
    for (uint32_t p = 0; p < polys; ++p) {
      const uint32_t n = m_.corner_count(p);
      if (m_.poly_start[p + 1] < m_.poly_start[p] || n < 3 || n > uint32_t(o_.max_verts_per_poly)) {
        Fail("polygon ", p, " has ", n, " corners");
        return false;
      }
      for (uint32_t c = m_.poly_start[p]; c < m_.poly_start[p + 1]; ++c) {
        if (m_.poly_verts[c] >= m_.vertices.size()) {
          Fail("polygon ", p, " uses vertex ", m_.poly_verts[c], " out of range");
          return false;
        }
        used[m_.poly_verts[c]] = 1;
        const int64_t nb = m_.poly_neighbors[c];
        if (nb < -1 || nb >= int64_t(polys) || nb == p) {
          Fail("polygon ", p, " has neighbour ", nb);
          return false;
        }
      }
    }
    for (size_t v = 0; v < m_.vertices.size(); ++v) {
      if (!used[v]) Fail("vertex ", v, " is used by no polygon");
      if (!IsFinite(m_.vertices[v])) Fail("vertex ", v, " is not finite");
    }
    return true;
  }

  void CheckPolygon(uint32_t p) {
    const uint32_t n = m_.corner_count(p);
    for (uint32_t i = 0; i < n; ++i) {
      for (uint32_t j = i + 1; j < n; ++j) {
        if (m_.poly_verts[m_.poly_start[p] + i] == m_.poly_verts[m_.poly_start[p] + j]) {
          Fail("polygon ", p, " repeats vertex ", m_.poly_verts[m_.poly_start[p] + i]);
        }
      }
    }
    if (PolygonPlanArea(m_, p) <= 0) Fail("polygon ", p, " has non-positive plan-view area");
    if (!o_.require_convex) return;
    for (uint32_t i = 0; i < n; ++i) {
      const Vec3 a = Corner(p, (i + n - 1) % n), b = Corner(p, i), c = Corner(p, (i + 1) % n);
      const double cross = Area2(a, b, c);
      const double dot =
          (double(b.x) - a.x) * (double(c.x) - b.x) + (double(b.z) - a.z) * (double(c.z) - b.z);
      if (cross < tol::kConvexity || (cross <= -tol::kConvexity && dot <= 0)) {
        Fail("polygon ", p, " corner ", i, " is reflex or a spike (cross ", cross, ")");
      }
    }
  }

  // Detail triangles must tile the polygon: positive, polygon edges used once in the same
  // direction, every other edge twice in opposite directions, and the areas add up.
  void CheckDetail(uint32_t p) {
    const uint32_t n = m_.corner_count(p);
    std::map<std::pair<int, int>, int> directed;
    double sum = 0;
    for (uint32_t t = 0; t + 2 < n; ++t) {
      const DetailTri& d = m_.detail_tris[m_.poly_start[p] - 2 * p + t];
      if (d.a >= n || d.b >= n || d.c >= n) {
        Fail("polygon ", p, " detail triangle ", t, " indexes a missing corner");
        return;
      }
      const double a2 = Area2(Corner(p, d.a), Corner(p, d.b), Corner(p, d.c));
      if (a2 <= 0) Fail("polygon ", p, " detail triangle ", t, " is not in map winding");
      sum += a2 / 2;
      ++directed[{d.a, d.b}];
      ++directed[{d.b, d.c}];
      ++directed[{d.c, d.a}];
    }
    for (const auto& [edge, count] : directed) {
      const auto [i, j] = edge;
      const bool boundary = uint32_t(j) == (uint32_t(i) + 1) % n;
      const int reverse = directed.count({j, i}) ? directed.at({j, i}) : 0;
      if (boundary ? (count != 1 || reverse != 0) : (count != 1 || reverse != 1)) {
        Fail("polygon ", p, " detail triangles do not tile it (edge ", i, "-", j, ")");
        break;
      }
    }
    for (uint32_t i = 0; i < n; ++i) {
      if (!directed.count({int(i), int((i + 1) % n)})) {
        Fail("polygon ", p, " edge ", i, " is not covered by a detail triangle");
      }
    }
    if (!NearlyEqual(sum, PolygonPlanArea(m_, p), 1e-5)) {
      Fail("polygon ", p, " plan area ", PolygonPlanArea(m_, p), " but detail triangles ", sum);
    }
  }

  void CheckNeighbours(uint32_t p) {
    const uint32_t n = m_.corner_count(p);
    for (uint32_t i = 0; i < n; ++i) {
      const int64_t q = m_.poly_neighbors[m_.poly_start[p] + i];
      if (q < 0) continue;
      const uint32_t u = m_.poly_verts[m_.poly_start[p] + i];
      const uint32_t v = m_.poly_verts[m_.poly_start[p] + (i + 1) % n];
      int back = 0;
      for (uint32_t j = 0; j < m_.corner_count(q); ++j) {
        const uint32_t c = m_.poly_start[q] + j;
        const uint32_t a = m_.poly_verts[c];
        const uint32_t b = m_.poly_verts[m_.poly_start[q] + (j + 1) % m_.corner_count(q)];
        if (a == v && b == u && m_.poly_neighbors[c] == p) ++back;
      }
      if (back != 1) Fail("polygon ", p, " edge ", i, " -> ", q, " is not mirrored exactly once");
      if (m_.poly_island[p] != m_.poly_island[q])
        Fail("neighbours ", p, ", ", q, " differ in island");
    }
  }

  void CheckTile(uint32_t p) {
    const MapInfo& info = m_.info;
    const uint64_t cells = uint64_t{info.grid_width} * info.grid_height;
    if (m_.poly_tile[p] >= cells) {
      Fail("polygon ", p, " tile ", m_.poly_tile[p], " outside the ", cells, "-cell grid");
      return;
    }
    const double x0 =
        info.grid_origin.x + double(m_.poly_tile[p] % info.grid_width) * info.tile_size;
    const double z0 =
        info.grid_origin.z + double(m_.poly_tile[p] / info.grid_width) * info.tile_size;
    const double slack = info.max_tile_overhang + kOverhangSlack;
    for (uint32_t i = 0; i < m_.corner_count(p); ++i) {
      const Vec3 c = Corner(p, i);
      if (c.x < x0 - slack || c.x > x0 + info.tile_size + slack || c.z < z0 - slack ||
          c.z > z0 + info.tile_size + slack) {
        Fail("polygon ", p, " corner ", i, " lies beyond its tile plus max_tile_overhang");
        return;
      }
    }
  }

  // An ordinary edge (one or two sides) is a wall or linked on both sides; a non-manifold one
  // (more sides) is linked in pairs, the rest walls.
  void CheckEdgeSides() {
    std::vector<std::tuple<uint32_t, uint32_t, int>> sides;
    for (uint32_t p = 0; p < m_.polygon_count(); ++p) {
      const uint32_t n = m_.corner_count(p);
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t u = Corner2(p, i), v = Corner2(p, (i + 1) % n);
        sides.emplace_back(std::min(u, v), std::max(u, v),
                           m_.poly_neighbors[m_.poly_start[p] + i] >= 0);
      }
    }
    std::sort(sides.begin(), sides.end());
    for (size_t i = 0; i < sides.size();) {
      size_t j = i;
      int linked = 0;
      for (; j < sides.size() && std::get<0>(sides[j]) == std::get<0>(sides[i]) &&
             std::get<1>(sides[j]) == std::get<1>(sides[i]);
           ++j) {
        linked += std::get<2>(sides[j]);
      }
      const bool ordinary = j - i <= 2;
      if (ordinary ? (linked != 0 && linked != 2) : linked % 2 != 0) {
        Fail("edge ", std::get<0>(sides[i]), "-", std::get<1>(sides[i]), " has ", linked,
             " linked sides");
      }
      i = j;
    }
  }
  uint32_t Corner2(uint32_t p, uint32_t i) const { return m_.poly_verts[m_.poly_start[p] + i]; }

  // Walls form closed loops: at every vertex as many wall edges leave as arrive.
  void CheckBoundaryLoops() {
    std::vector<int64_t> balance(m_.vertices.size(), 0);
    for (uint32_t p = 0; p < m_.polygon_count(); ++p) {
      const uint32_t n = m_.corner_count(p);
      for (uint32_t i = 0; i < n; ++i) {
        if (m_.poly_neighbors[m_.poly_start[p] + i] >= 0) continue;
        ++balance[Corner2(p, i)];
        --balance[Corner2(p, (i + 1) % n)];
      }
    }
    for (size_t v = 0; v < balance.size(); ++v) {
      if (balance[v] != 0) Fail("boundary loop is open at vertex ", v);
    }
  }

  void CheckIslands() {
    const auto& islands = m_.info.islands;
    std::vector<uint32_t> count(islands.size(), 0);
    std::vector<double> area(islands.size(), 0);
    for (uint32_t p = 0; p < m_.polygon_count(); ++p) {
      if (m_.poly_island[p] >= islands.size()) {
        Fail("polygon ", p, " island ", m_.poly_island[p], " out of range");
        return;
      }
      ++count[m_.poly_island[p]];
      area[m_.poly_island[p]] += PolygonSurfaceArea(m_, p);
    }
    double total = 0;
    for (size_t i = 0; i < islands.size(); ++i) {
      if (islands[i].polygons != count[i] || count[i] == 0) {
        Fail("island ", i, " claims ", islands[i].polygons, " polygons, has ", count[i]);
      }
      if (!NearlyEqual(islands[i].area, area[i], kRelativeAreaTolerance)) {
        Fail("island ", i, " area ", islands[i].area, " but its polygons sum to ", area[i]);
      }
      if (i > 0 && islands[i].polygons > islands[i - 1].polygons) {
        Fail("islands are not ordered largest first at ", i);
      }
      if (islands[i].group >= islands.size()) Fail("island ", i, " group out of range");
      total += islands[i].area;
    }
    if (!NearlyEqual(total, m_.info.walkable_area, kRelativeAreaTolerance)) {
      Fail("islands cover ", total, " m² but walkable_area is ", m_.info.walkable_area);
    }
  }

  void CheckInfo() {
    const MapInfo& info = m_.info;
    if (info.vertex_count != m_.vertices.size()) Fail("info.vertex_count is wrong");
    if (info.polygon_count != m_.polygon_count()) Fail("info.polygon_count is wrong");
    if (info.off_mesh_link_count != m_.links.size()) Fail("info.off_mesh_link_count is wrong");
    double surface = 0;
    for (uint32_t p = 0; p < m_.polygon_count(); ++p) surface += PolygonSurfaceArea(m_, p);
    if (!NearlyEqual(surface, info.walkable_area, kRelativeAreaTolerance)) {
      Fail("walkable_area ", info.walkable_area, " but detail triangles cover ", surface);
    }
    for (const Vec3& v : m_.vertices) {
      if (v.x < info.bounds.min.x || v.y < info.bounds.min.y || v.z < info.bounds.min.z ||
          v.x > info.bounds.max.x || v.y > info.bounds.max.y || v.z > info.bounds.max.z) {
        Fail("vertex outside info.bounds");
        break;
      }
    }
    for (uint32_t p = 0; p < m_.polygon_count(); ++p) {
      if (m_.poly_area[p] >= kMaxAreas || !info.areas[m_.poly_area[p]].used) {
        Fail("polygon ", p, " area ", int{m_.poly_area[p]}, " is invalid or not marked used");
        break;
      }
    }
    for (size_t i = 0; i < m_.links.size(); ++i) {
      if (m_.links[i].start_poly >= m_.polygon_count() ||
          m_.links[i].end_poly >= m_.polygon_count()) {
        Fail("off-mesh link ", i, " points at a missing polygon");
      }
    }
  }

  const RepairedMesh& m_;
  const InvariantOptions& o_;
  std::vector<std::string> errors_;
};

}  // namespace

std::vector<std::string> FindInvariantViolations(const RepairedMesh& mesh,
                                                 const InvariantOptions& options) {
  return Checker(mesh, options).Run();
}

::testing::AssertionResult MeshInvariantsHold(const RepairedMesh& mesh,
                                              const InvariantOptions& options) {
  const std::vector<std::string> errors = FindInvariantViolations(mesh, options);
  if (errors.empty()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << errors.size() << " mesh invariant violations:\n  " << absl::StrJoin(errors, "\n  ");
}

double PolygonPlanArea(const RepairedMesh& mesh, uint32_t p) {
  double sum = 0;
  const uint32_t begin = mesh.poly_start[p], n = mesh.corner_count(p);
  const Vec3 o = mesh.vertices[mesh.poly_verts[begin]];
  for (uint32_t i = 1; i + 1 < n; ++i) {
    sum += Area2(o, mesh.vertices[mesh.poly_verts[begin + i]],
                 mesh.vertices[mesh.poly_verts[begin + i + 1]]);
  }
  return sum / 2;
}

double PolygonSurfaceArea(const RepairedMesh& mesh, uint32_t p) {
  double sum = 0;
  const uint32_t begin = mesh.poly_start[p], n = mesh.corner_count(p);
  for (uint32_t t = 0; t + 2 < n; ++t) {
    const DetailTri& d = mesh.detail_tris[begin - 2 * p + t];
    sum += Surface(mesh.vertices[mesh.poly_verts[begin + d.a]],
                   mesh.vertices[mesh.poly_verts[begin + d.b]],
                   mesh.vertices[mesh.poly_verts[begin + d.c]]);
  }
  return sum;
}

double SourceSurfaceArea(const SourceMesh& source) {
  double sum = 0;
  for (uint32_t p = 0; p < source.polygon_count(); ++p) sum += FanSum(source, p, Surface);
  return sum;
}

double SourcePlanArea(const SourceMesh& source) {
  double sum = 0;
  for (uint32_t p = 0; p < source.polygon_count(); ++p) {
    sum += std::fabs(FanSum(source, p, Area2)) / 2;
  }
  return sum;
}

}  // namespace waymesh::testing
