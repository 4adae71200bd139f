#include "link_check.h"

#include <cmath>
#include <set>
#include <tuple>

#include "absl/strings/str_format.h"
#include "waymesh/format/finding_place.h"
#include "waymesh/mesh/tolerances.h"

namespace waymesh {
namespace {

// Why `pos` is not on polygon `ref` under the attachment rule, or empty when it is.
std::string OffPolygonReason(const NavQuery& query, PolyRef ref, Vec3 pos, float radius) {
  absl::StatusOr<Vec3> closest = query.ClosestPointOnPoly(ref, pos);
  if (!closest.ok()) return std::string(closest.status().message());
  const double plan = DistanceXZ(*closest, pos);
  const double height = std::fabs(double(closest->y) - pos.y);
  const double plan_limit = double(radius) + tol::kInsidePolygon;
  const double height_limit = double(radius) + tol::kOffMeshLinkHeight;
  if (plan <= plan_limit && height <= height_limit) return "";
  const TileView& tile = query.map().tile(ref.tile());
  return absl::StrFormat(
      "%.2f m from %s in plan view and %.2f m in height (allowed %.2f m / %.2f m)", plan,
      PolygonPlace(tile, ref.poly()), height, plan_limit, height_limit);
}

}  // namespace

std::vector<MapFinding> CheckOffMeshLinks(const NavQuery& query) {
  std::vector<MapFinding> findings;
  // A bidirectional link is stored once per direction: report each of its ends once.
  std::set<std::tuple<uint32_t, float, float, float>> reported;
  for (const TileView& tile : query.map().tiles()) {
    for (const OffMeshLink& link : tile.off_mesh_links) {
      const struct {
        const char* name;
        PolyRef ref;
        Vec3 pos;
      } ends[] = {{"start", query.map().Ref({tile.index, link.start_poly}), link.start},
                  {"end", query.map().Ref({link.end_tile, link.end_poly}), link.end}};
      for (const auto& end : ends) {
        const std::string reason = OffPolygonReason(query, end.ref, end.pos, link.radius);
        if (reason.empty() || !reported.emplace(link.id, end.pos.x, end.pos.y, end.pos.z).second) {
          continue;
        }
        findings.push_back(
            {std::string(kCheckOffMeshLink),
             absl::StrFormat("link %d (stored in tile %d (%d,%d)%s): %s %s is not on the mesh: %s",
                             link.id, tile.index, tile.grid_x, tile.grid_z,
                             link.bidirectional ? ", bidirectional" : "", end.name,
                             PositionText(end.pos), reason)});
      }
    }
  }
  return findings;
}

}  // namespace waymesh
