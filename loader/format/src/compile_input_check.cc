#include "compile_input_check.h"

#include <cmath>
#include <optional>

#include "absl/strings/str_cat.h"
#include "map_strings.h"
#include "waymesh/core/tolerances.h"
#include "waymesh/io/utf8_check.h"
#include "wmesh_layout.h"

namespace waymesh {
namespace {

absl::Status Invalid(absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("CompileMap: ", what));
}

absl::Status CheckInfo(const MapInfo& info) {
  const uint64_t cells = uint64_t{info.grid_width} * info.grid_height;
  if (cells == 0 || cells > wmesh::kMaxGridCells) {
    return Invalid(absl::StrCat("tile grid ", info.grid_width, " x ", info.grid_height,
                                " must have 1 to ", wmesh::kMaxGridCells, " cells"));
  }
  for (int i = 0; i < wmesh::kStringCount; ++i) {
    const std::string& s = wmesh::MapString(info, i);
    if (s.size() > wmesh::kMaxStringBytes) {
      return Invalid(absl::StrCat(wmesh::MapStringName(i), " of ", s.size(), " bytes exceeds ",
                                  wmesh::kMaxStringBytes));
    }
    // Clients could not parse the server's answers holding it (protobuf strings are UTF-8).
    if (std::optional<std::string> problem = Utf8Problem(s)) {
      return Invalid(absl::StrCat(wmesh::MapStringName(i), " is not valid UTF-8 (", *problem,
                                  "); the map name comes from the export's scene name or, "
                                  "without one, the input file's name"));
    }
  }
  for (int a = 0; a < kMaxAreas; ++a) {
    if (!std::isfinite(info.areas[a].cost)) {
      return Invalid(absl::StrCat("area ", a, ": cost not finite"));
    }
  }
  const AgentSettings& g = info.agent;
  for (float f :
       {g.radius, g.height, g.max_slope_deg, g.step_height, g.voxel_size, info.tile_size,
        info.max_tile_overhang, info.grid_origin.x, info.grid_origin.y, info.grid_origin.z}) {
    if (!std::isfinite(f)) return Invalid("map metadata holds a non-finite number");
  }
  if (!IsFinite(info.bounds.min) || !IsFinite(info.bounds.max)) {
    return Invalid("map bounds are not finite");
  }
  if (info.islands.size() > UINT32_MAX / 2) return Invalid("too many islands");
  return absl::OkStatus();
}

absl::Status CheckPolygons(const RepairedMesh& m) {
  if (m.poly_start.empty() || m.poly_start[0] != 0) return Invalid("poly_start must begin at 0");
  if (m.poly_start.back() != m.poly_verts.size()) {
    return Invalid(absl::StrCat("poly_start ends at ", m.poly_start.back(), " but poly_verts has ",
                                m.poly_verts.size(), " entries"));
  }
  const uint64_t polys = m.poly_start.size() - 1;
  const uint64_t corners = m.poly_verts.size();
  if (m.poly_neighbors.size() != corners || m.poly_area.size() != polys ||
      m.poly_flags.size() != polys || m.poly_tile.size() != polys ||
      m.poly_island.size() != polys || m.detail_tris.size() + 2 * polys != corners) {
    return Invalid("per-polygon or per-corner array lengths disagree with poly_start");
  }
  const uint64_t cells = uint64_t{m.info.grid_width} * m.info.grid_height;
  for (uint32_t p = 0; p < polys; ++p) {
    const uint32_t begin = m.poly_start[p], end = m.poly_start[p + 1];
    if (end < begin || end - begin < 3 || end - begin > uint32_t(tol::kMaxVertsPerPolyLimit)) {
      return Invalid(absl::StrCat("polygon ", p, " has ", int64_t{end} - begin, " corners"));
    }
    for (uint32_t c = begin; c < end; ++c) {
      if (m.poly_verts[c] >= m.vertices.size()) {
        return Invalid(
            absl::StrCat("polygon ", p, ": vertex ", m.poly_verts[c], " >= ", m.vertices.size()));
      }
      const int64_t n = m.poly_neighbors[c];
      if (n < -1 || n >= int64_t(polys)) {
        return Invalid(absl::StrCat("polygon ", p, ": neighbour ", n, " out of range"));
      }
    }
    for (uint32_t t = begin - 2 * p; t < end - 2 * p - 2; ++t) {
      const DetailTri& d = m.detail_tris[t];
      if (d.a >= end - begin || d.b >= end - begin || d.c >= end - begin) {
        return Invalid(absl::StrCat("polygon ", p, ": detail triangle corner out of range"));
      }
    }
    if (m.poly_area[p] >= kMaxAreas || m.poly_tile[p] >= cells ||
        m.poly_island[p] >= m.info.islands.size()) {
      return Invalid(absl::StrCat("polygon ", p, ": area, tile or island out of range"));
    }
  }
  for (size_t v = 0; v < m.vertices.size(); ++v) {
    if (!IsFinite(m.vertices[v])) return Invalid(absl::StrCat("vertex ", v, " is not finite"));
  }
  return absl::OkStatus();
}

absl::Status CheckLinks(const RepairedMesh& m) {
  for (size_t i = 0; i < m.links.size(); ++i) {
    const ResolvedOffMeshLink& l = m.links[i];
    if (l.start_poly >= m.polygon_count() || l.end_poly >= m.polygon_count() ||
        l.area >= kMaxAreas || !IsFinite(l.start) || !IsFinite(l.end) || !std::isfinite(l.radius) ||
        !std::isfinite(l.cost)) {
      return Invalid(absl::StrCat("off-mesh link ", i,
                                  ": polygon or area out of range, or "
                                  "non-finite number"));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status CheckCompileInput(const RepairedMesh& mesh) {
  if (absl::Status s = CheckInfo(mesh.info); !s.ok()) return s;
  if (absl::Status s = CheckPolygons(mesh); !s.ok()) return s;
  return CheckLinks(mesh);
}

}  // namespace waymesh
