// CheckMapStructure: the structural checks every map must pass to be served (map_structure.h).

#include "waymesh/format/map_structure.h"

#include <cmath>
#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "waymesh/core/tolerances.h"
#include "waymesh/format/finding_place.h"
#include "waymesh/io/number_text.h"
#include "waymesh/mesh/repair_geometry.h"

namespace waymesh {
namespace {

bool WithinLimit(float v) { return std::fabs(v) <= tol::kMaxCoordinate; }
bool WithinLimit(Vec3 p) { return WithinLimit(p.x) && WithinLimit(p.y) && WithinLimit(p.z); }

class StructureChecker {
 public:
  explicit StructureChecker(const NavMap& map) : map_(map) {}

  std::vector<MapFinding> Run() {
    CheckGrid();
    for (const TileView& tile : map_.tiles()) {
      CheckVertices(tile);
      for (uint32_t p = 0; p < tile.poly_count(); ++p) {
        CheckNeighbors(tile, p);
        CheckConvexity(tile, p);
      }
    }
    return std::move(findings_);
  }

 private:
  void Add(std::string_view check, std::string message) {
    findings_.push_back({std::string(check), std::move(message)});
  }

  void CheckGrid() {
    const MapInfo& info = map_.info();
    if (!(info.tile_size >= kMinTileSize) || !WithinLimit(info.tile_size)) {
      Add(kCheckStructure,
          absl::StrCat("tile_size ", NumberText(info.tile_size), " m is not in [",
                       NumberText(kMinTileSize), ", ", NumberText(tol::kMaxCoordinate), "] m"));
    }
    if (!WithinLimit(info.grid_origin) || !WithinLimit(info.bounds.min) ||
        !WithinLimit(info.bounds.max)) {
      Add(kCheckStructure,
          absl::StrCat("grid origin ", PositionText(info.grid_origin), " or bounds ",
                       PositionText(info.bounds.min), "-", PositionText(info.bounds.max),
                       " beyond the coordinate limit of ±", NumberText(tol::kMaxCoordinate), " m"));
    }
  }

  void CheckVertices(const TileView& t) {
    for (size_t v = 0; v < t.vertices.size(); ++v) {
      if (WithinLimit(t.vertices[v])) continue;
      Add(kCheckStructure,
          absl::StrCat("tile ", t.index, " (", t.grid_x, ",", t.grid_z, ") vertex ", v, " at ",
                       PositionText(t.vertices[v]), " is beyond the coordinate limit of ±",
                       NumberText(tol::kMaxCoordinate), " m"));
      return;  // one finding per tile
    }
  }

  // A link must be mirrored: the neighbour links back across the same two positions. A search
  // crossing a link that is not could leave the polygon through a portal that is not there.
  void CheckNeighbors(const TileView& t, uint32_t p) {
    for (uint32_t i = 0, n = t.corner_count(p); i < n; ++i) {
      const std::optional<PolyIndex> q = t.across(t.poly_start[p] + i);
      if (!q) continue;
      if (*q == PolyIndex{t.index, p}) {
        Add(kCheckNonManifold, absl::StrCat(EdgePlace(t, p, i), ": links to its own polygon"));
        continue;
      }
      const TileView& u = map_.tile(q->tile);
      const Vec3 a = t.corner(p, i), b = t.corner(p, (i + 1) % n);
      bool links_back = false, mirrored = false;
      for (uint32_t j = 0, m = u.corner_count(q->poly); j < m && !mirrored; ++j) {
        if (u.across(u.poly_start[q->poly] + j) != PolyIndex{t.index, p}) continue;
        links_back = true;
        mirrored = u.corner(q->poly, j) == b && u.corner(q->poly, (j + 1) % m) == a;
      }
      if (mirrored) continue;
      Add(kCheckNonManifold,
          absl::StrCat(EdgePlace(t, p, i), ": links to ", PolygonPlace(u, q->poly),
                       links_back ? ", which links back across a different edge"
                                  : ", which does not link back (asymmetric neighbours)"));
    }
  }

  // Queries assume convex polygons in the map's winding; one wound the other way has every
  // corner reflex.
  void CheckConvexity(const TileView& t, uint32_t p) {
    const uint32_t n = t.corner_count(p);
    for (uint32_t i = 0; i < n; ++i) {
      const Vec3 prev = t.corner(p, (i + n - 1) % n), cur = t.corner(p, i),
                 next = t.corner(p, (i + 1) % n);
      if (repair::IsConvexCorner(prev, cur, next)) continue;
      Add(kCheckNonConvex,
          absl::StrCat(PolygonPlace(t, p), " corner ", i, " ", PositionText(cur),
                       ": reflex corner (twice signed area ",
                       NumberText(repair::Area2XZ(prev, cur, next)), " m², tolerance ",
                       NumberText(tol::kConvexity), "; wound against the map?)"));
      return;  // one finding per polygon
    }
  }

  const NavMap& map_;
  std::vector<MapFinding> findings_;
};

}  // namespace

std::vector<MapFinding> CheckMapStructure(const NavMap& map) { return StructureChecker(map).Run(); }

absl::Status MapStructureStatus(const NavMap& map) {
  const std::vector<MapFinding> findings = CheckMapStructure(map);
  if (findings.empty()) return absl::OkStatus();
  std::string more;
  if (findings.size() > 1) {
    more = absl::StrCat(" (and ", findings.size() - 1, " more)");
  }
  return absl::InvalidArgumentError(
      absl::StrCat(kStructurallyBroken, FindingLine(findings.front()), more));
}

}  // namespace waymesh
