#include "source_combiner.h"

#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "waymesh/core/tolerances.h"
#include "waymesh/io/number_text.h"

namespace waymesh::repair {
namespace {

// Global indices are 32-bit; half-edges (3 per triangle) must fit too.
constexpr uint64_t kMaxGlobalCount = std::numeric_limits<uint32_t>::max() / 4;
// Ear clipping is quadratic in a polygon's corners; navmesh polygons have a handful.
constexpr uint32_t kMaxSourcePolygonCorners = 1024;

absl::Status Bad(const SourceMesh& s, const std::string& what) {
  return absl::InvalidArgumentError(
      absl::StrCat(s.origin.empty() ? "<source>" : s.origin, ": ", what));
}

bool IsSaneCoordinate(Vec3 p) {
  return IsFinite(p) && std::fabs(p.x) <= tol::kMaxCoordinate &&
         std::fabs(p.y) <= tol::kMaxCoordinate && std::fabs(p.z) <= tol::kMaxCoordinate;
}

absl::Status CheckVertices(const SourceMesh& s) {
  for (size_t i = 0; i < s.vertices.size(); ++i) {
    if (!IsSaneCoordinate(s.vertices[i])) {
      const Vec3 p = s.vertices[i];
      return Bad(s, absl::StrCat("vertex ", i, " is (", NumberText(p.x), ", ", NumberText(p.y),
                                 ", ", NumberText(p.z), "): not finite or beyond ",
                                 NumberText(tol::kMaxCoordinate), " m"));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckPolygons(const SourceMesh& s) {
  if (s.poly_start.empty() || s.poly_start[0] != 0) {
    return Bad(s, "polygon table must start at offset 0");
  }
  if (s.poly_start.back() != s.poly_verts.size()) {
    return Bad(s, absl::StrCat("polygon table ends at ", s.poly_start.back(), " but there are ",
                               s.poly_verts.size(), " polygon corners"));
  }
  const uint32_t polys = s.polygon_count();
  if (polys == 0) return Bad(s, "mesh has no polygons");
  if (s.poly_area.size() != polys) {
    return Bad(s, absl::StrCat(s.poly_area.size(), " area ids for ", polys, " polygons"));
  }
  for (uint32_t p = 0; p < polys; ++p) {
    if (s.poly_start[p + 1] < s.poly_start[p] || s.poly_start[p + 1] - s.poly_start[p] < 3) {
      return Bad(s, absl::StrCat("polygon ", p, " has fewer than 3 corners"));
    }
    if (s.poly_start[p + 1] - s.poly_start[p] > kMaxSourcePolygonCorners) {
      return Bad(s, absl::StrCat("polygon ", p, " has ", s.poly_start[p + 1] - s.poly_start[p],
                                 " corners; at most ", kMaxSourcePolygonCorners, " are supported"));
    }
    if (s.poly_area[p] >= kMaxAreas) {
      return Bad(s, absl::StrCat("polygon ", p, " has area id ", int{s.poly_area[p]},
                                 " (allowed 0..", kMaxAreas - 1, ")"));
    }
    for (uint32_t c = s.poly_start[p]; c < s.poly_start[p + 1]; ++c) {
      if (s.poly_verts[c] >= s.vertices.size()) {
        return Bad(
            s, absl::StrCat("polygon ", p, " corner ", c - s.poly_start[p], " uses vertex ",
                            s.poly_verts[c], " but the mesh has ", s.vertices.size(), " vertices"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status CheckLinks(const SourceMesh& s) {
  for (size_t i = 0; i < s.links.size(); ++i) {
    const SourceOffMeshLink& l = s.links[i];
    if (!IsSaneCoordinate(l.start) || !IsSaneCoordinate(l.end)) {
      return Bad(s, absl::StrCat("off-mesh link ", i, " has a non-finite or absurd end point"));
    }
    if (!std::isfinite(l.radius) || l.radius < 0 || l.radius > tol::kMaxCoordinate) {
      return Bad(s, absl::StrCat("off-mesh link ", i, " has radius ", l.radius));
    }
    if (!std::isfinite(l.cost) || l.cost > tol::kMaxCoordinate * 1e3f) {
      return Bad(s, absl::StrCat("off-mesh link ", i, " has cost ", l.cost));
    }
    if (l.area >= kMaxAreas) {
      return Bad(s, absl::StrCat("off-mesh link ", i, " has area id ", int{l.area}));
    }
  }
  return absl::OkStatus();
}

absl::Status CheckSource(const SourceMesh& s) {
  if (absl::Status st = CheckVertices(s); !st.ok()) return st;
  if (absl::Status st = CheckPolygons(s); !st.ok()) return st;
  return CheckLinks(s);
}

void Append(const SourceMesh& s, CombinedSource* out) {
  const uint32_t base = uint32_t(out->vertices.size());
  out->vertices.insert(out->vertices.end(), s.vertices.begin(), s.vertices.end());
  for (uint32_t v : s.poly_verts) out->poly_verts.push_back(base + v);
  const uint32_t corner_base = out->poly_start.back();
  for (uint32_t p = 1; p < s.poly_start.size(); ++p) {
    out->poly_start.push_back(corner_base + s.poly_start[p]);
    out->input_triangles += s.poly_start[p] - s.poly_start[p - 1] - 2;
  }
  out->poly_area.insert(out->poly_area.end(), s.poly_area.begin(), s.poly_area.end());
  for (size_t i = 0; i < s.links.size(); ++i) {
    out->links.push_back(s.links[i]);
    out->link_names.push_back(absl::StrCat(s.origin, " link ", i));
  }
}

}  // namespace

absl::StatusOr<CombinedSource> CombineSources(std::span<const SourceMesh> sources) {
  if (sources.empty()) return absl::InvalidArgumentError("repair: no source meshes given");
  uint64_t vertices = 0, corners = 0, links = 0;
  for (const SourceMesh& s : sources) {
    if (absl::Status st = CheckSource(s); !st.ok()) return st;
    vertices += s.vertices.size();
    corners += s.poly_verts.size();
    links += s.links.size();
  }
  if (vertices > kMaxGlobalCount || corners > kMaxGlobalCount || links > kMaxGlobalCount) {
    return absl::InvalidArgumentError(absl::StrCat(
        "repair: the sources hold ", vertices, " vertices and ", corners,
        " polygon corners in total; at most ", kMaxGlobalCount, " of each are supported"));
  }
  CombinedSource out;
  out.vertices.reserve(vertices);
  out.poly_verts.reserve(corners);
  for (const SourceMesh& s : sources) Append(s, &out);
  return out;
}

}  // namespace waymesh::repair
