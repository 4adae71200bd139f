#include "off_mesh_link_resolver.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_format.h"
#include "plan_grid.h"
#include "waymesh/mesh/repair_geometry.h"
#include "waymesh/mesh/tolerances.h"

namespace waymesh::repair {
namespace {

struct SurfacePoint {
  double plan_distance = std::numeric_limits<double>::infinity();
  double height = 0;  // surface height at the plan-view closest point
};

struct Attachment {
  uint32_t poly = UINT32_MAX;
  double score = std::numeric_limits<double>::infinity();
};

// Closest point of segment ab to p in plan view, as the parameter along ab.
double SegmentParameterXZ(Vec3 a, Vec3 b, Vec3 p) {
  const double dx = double(b.x) - a.x, dz = double(b.z) - a.z;
  const double len_sq = dx * dx + dz * dz;
  if (len_sq == 0) return 0;
  return std::clamp(((double(p.x) - a.x) * dx + (double(p.z) - a.z) * dz) / len_sq, 0.0, 1.0);
}

// Plan-view distance from p to triangle abc (map winding) and the surface height there.
SurfacePoint ClosestOnTriangle(Vec3 a, Vec3 b, Vec3 c, Vec3 p) {
  const double area = Area2XZ(a, b, c);
  if (area <= 0) return {};
  const double wa = Area2XZ(b, c, p), wb = Area2XZ(c, a, p), wc = Area2XZ(a, b, p);
  if (wa >= 0 && wb >= 0 && wc >= 0) {
    return {0.0, (wa * a.y + wb * b.y + wc * c.y) / area};
  }
  SurfacePoint best;
  const Vec3 corners[3] = {a, b, c};
  for (int k = 0; k < 3; ++k) {
    const Vec3 s = corners[k], e = corners[(k + 1) % 3];
    const double t = SegmentParameterXZ(s, e, p);
    const double x = s.x + t * (double(e.x) - s.x), z = s.z + t * (double(e.z) - s.z);
    const double d = std::hypot(x - p.x, z - p.z);
    if (d < best.plan_distance) best = {d, s.y + t * (double(e.y) - s.y)};
  }
  return best;
}

class PolygonLocator {
 public:
  explicit PolygonLocator(const RepairedMesh& mesh) : mesh_(mesh) {
    std::vector<PlanBox> boxes(mesh.polygon_count());
    double extent_sum = 0;
    for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
      PlanBox b{1e30f, 1e30f, -1e30f, -1e30f};
      for (uint32_t c = mesh.poly_start[p]; c < mesh.poly_start[p + 1]; ++c) {
        const Vec3 v = mesh.vertices[mesh.poly_verts[c]];
        b = {std::min(b.min_x, v.x), std::min(b.min_z, v.z), std::max(b.max_x, v.x),
             std::max(b.max_z, v.z)};
      }
      boxes[p] = b;
      extent_sum += std::max(b.max_x - b.min_x, b.max_z - b.min_z);
    }
    grid_.Build(boxes, boxes.empty() ? 1.0 : 2 * extent_sum / boxes.size());
  }

  // Best polygon for a link end at p, or UINT32_MAX.
  uint32_t Attach(Vec3 p, float radius) {
    const double plan_limit = double(radius) + tol::kInsidePolygon;
    const double height_limit = double(radius) + tol::kOffMeshLinkHeight;
    const float r = float(plan_limit);
    candidates_.clear();
    grid_.ForEachNear({p.x - r, p.z - r, p.x + r, p.z + r},
                      [&](uint32_t poly) { candidates_.push_back(poly); });
    std::sort(candidates_.begin(), candidates_.end());
    candidates_.erase(std::unique(candidates_.begin(), candidates_.end()), candidates_.end());
    Attachment best;
    for (uint32_t poly : candidates_) {
      const SurfacePoint s = Closest(poly, p);
      const double dy = std::fabs(s.height - p.y);
      if (s.plan_distance > plan_limit || dy > height_limit) continue;
      const double score = s.plan_distance * s.plan_distance + dy * dy;
      if (score < best.score) best = {poly, score};
    }
    return best.poly;
  }

 private:
  SurfacePoint Closest(uint32_t poly, Vec3 p) const {
    const uint32_t start = mesh_.poly_start[poly], n = mesh_.poly_start[poly + 1] - start;
    SurfacePoint best;
    for (uint32_t t = 0; t + 2 < n; ++t) {
      const DetailTri& d = mesh_.detail_tris[start - 2 * poly + t];
      const SurfacePoint s = ClosestOnTriangle(mesh_.vertices[mesh_.poly_verts[start + d.a]],
                                               mesh_.vertices[mesh_.poly_verts[start + d.b]],
                                               mesh_.vertices[mesh_.poly_verts[start + d.c]], p);
      if (s.plan_distance < best.plan_distance) best = s;
    }
    return best;
  }

  const RepairedMesh& mesh_;
  PlanGrid grid_;
  std::vector<uint32_t> candidates_;
};

std::string DropFinding(const std::string& name, const char* end, Vec3 p, float radius) {
  return absl::StrFormat(
      "%s dropped: %s (%.3f, %.3f, %.3f) is not on the mesh (no polygon within %g m in plan "
      "view and %g m in height)",
      name, end, p.x, p.y, p.z, radius, radius + tol::kOffMeshLinkHeight);
}

}  // namespace

LinkResolution ResolveOffMeshLinks(const RepairedMesh& mesh,
                                   std::span<const SourceOffMeshLink> links,
                                   std::span<const std::string> names) {
  LinkResolution out;
  if (links.empty()) return out;
  PolygonLocator locator(mesh);
  for (uint32_t i = 0; i < links.size(); ++i) {
    const SourceOffMeshLink& l = links[i];
    const uint32_t start = locator.Attach(l.start, l.radius);
    const uint32_t end = start == UINT32_MAX ? UINT32_MAX : locator.Attach(l.end, l.radius);
    if (start == UINT32_MAX || end == UINT32_MAX) {
      ++out.dropped;
      out.findings.push_back(start == UINT32_MAX ? DropFinding(names[i], "start", l.start, l.radius)
                                                 : DropFinding(names[i], "end", l.end, l.radius));
      continue;
    }
    const float cost =
        l.cost >= 0 ? l.cost : Distance(l.start, l.end) * mesh.info.areas[l.area].cost;
    out.links.push_back({l.start, l.end, l.radius, cost, start, end, i, l.area, l.bidirectional});
  }
  return out;
}

}  // namespace waymesh::repair
