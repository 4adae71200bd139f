// CheckMap: runs the validation checks `waymesh validate` asks for on a loaded map.

#include "waymesh/checks/map_checks.h"

#include <algorithm>

#include "absl/strings/str_format.h"
#include "connectivity_check.h"
#include "link_check.h"
#include "topology_check.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/format/finding_place.h"
#include "waymesh/format/map_structure.h"

namespace waymesh {
namespace {

size_t CountCheck(const std::vector<MapFinding>& findings, std::string_view check) {
  return std::count_if(findings.begin(), findings.end(),
                       [check](const MapFinding& f) { return f.check == check; });
}

void Append(std::vector<MapFinding> more, MapCheckReport* report) {
  for (MapFinding& f : more) report->findings.push_back(std::move(f));
}

void RunStructure(const NavMap& map, MapCheckReport* report) {
  std::vector<MapFinding> found = CheckMapStructure(map);
  report->summary.push_back(absl::StrFormat(
      "structure (what the server refuses): tile grid, coordinates, winding, neighbour links: "
      "%d problems",
      found.size()));
  Append(std::move(found), report);
}

// After RunStructure: its link and winding findings count here too.
void RunTopology(const NavMap& map, MapCheckReport* report) {
  std::vector<MapFinding> found = CheckTopology(map);
  uint64_t edges = 0;
  for (const TileView& t : map.tiles()) edges += t.poly_verts.size();
  const std::vector<MapFinding>& structure = report->findings;
  report->summary.push_back(absl::StrFormat(
      "topology: %d polygons, %d polygon edges in %d tiles: %d open seams, %d non-manifold, "
      "%d non-convex",
      map.info().polygon_count, edges, map.tile_count(), CountCheck(found, kCheckOpenSeam),
      CountCheck(found, kCheckNonManifold) + CountCheck(structure, kCheckNonManifold),
      CountCheck(structure, kCheckNonConvex)));
  Append(std::move(found), report);
}

// A position on each island (the centroid of its first polygon), for findings to point at.
std::vector<Vec3> IslandPositions(const NavMap& map) {
  std::vector<Vec3> where(map.info().islands.size());
  std::vector<bool> seen(where.size(), false);
  for (const TileView& t : map.tiles()) {
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      const uint32_t island = t.poly_island[p];
      if (!seen[island]) {
        seen[island] = true;
        where[island] = PolygonCentroid(t, p);
      }
    }
  }
  return where;
}

std::string IslandText(const MapInfo& info, const std::vector<Vec3>& where, uint32_t i) {
  return absl::StrFormat("island %d (%d polygons, %.2f m² near %s)", i, info.islands[i].polygons,
                         info.islands[i].area, PositionText(where[i]));
}

void RunIslands(const NavMap& map, const MapCheckOptions& options, MapCheckReport* report) {
  const MapInfo& info = map.info();
  if (info.islands.empty()) {
    report->summary.push_back("islands: none");
    return;
  }
  const std::vector<Vec3> where = IslandPositions(map);
  uint32_t smallest = 0, largest = 0;
  for (uint32_t i = 1; i < info.islands.size(); ++i) {
    if (info.islands[i].area < info.islands[smallest].area) smallest = i;
    if (info.islands[i].area > info.islands[largest].area) largest = i;
  }
  report->summary.push_back(absl::StrFormat("islands: %d; smallest %s; largest %s",
                                            info.islands.size(), IslandText(info, where, smallest),
                                            IslandText(info, where, largest)));
  if (options.max_islands && info.islands.size() > *options.max_islands) {
    report->findings.push_back(
        {std::string(kCheckIslands),
         absl::StrFormat("%d islands, at most %d allowed (--max-islands); smallest %s",
                         info.islands.size(), *options.max_islands,
                         IslandText(info, where, smallest))});
  }
  if (!options.min_island_area) return;
  for (uint32_t i = 0; i < info.islands.size(); ++i) {
    if (info.islands[i].area >= *options.min_island_area) continue;
    report->findings.push_back(
        {std::string(kCheckIslandArea),
         absl::StrFormat("%s is smaller than %.2f m² (--min-island-area)",
                         IslandText(info, where, i), *options.min_island_area)});
  }
}

void RunWalkableArea(const MapInfo& info, const MapCheckOptions& options, MapCheckReport* report) {
  report->summary.push_back(absl::StrFormat("walkable area: %.2f m²", info.walkable_area));
  if (options.min_area && info.walkable_area < *options.min_area) {
    report->findings.push_back({std::string(kCheckWalkableArea),
                                absl::StrFormat("%.2f m² is below the minimum %.2f m² (--min-area)",
                                                info.walkable_area, *options.min_area)});
  }
  if (options.max_area && info.walkable_area > *options.max_area) {
    report->findings.push_back({std::string(kCheckWalkableArea),
                                absl::StrFormat("%.2f m² is above the maximum %.2f m² (--max-area)",
                                                info.walkable_area, *options.max_area)});
  }
}

}  // namespace

MapCheckReport CheckMap(std::shared_ptr<const NavMap> map, const MapCheckOptions& options) {
  MapCheckReport report;
  RunStructure(*map, &report);  // always: the server refuses what it finds
  if (options.topology) RunTopology(*map, &report);
  RunIslands(*map, options, &report);
  RunWalkableArea(map->info(), options, &report);
  NavQuery query(map);
  if (options.off_mesh_links) {
    std::vector<MapFinding> found = CheckOffMeshLinks(query);
    report.summary.push_back(absl::StrFormat("off-mesh links: %d, %d ends off the mesh",
                                             map->info().off_mesh_link_count, found.size()));
    Append(std::move(found), &report);
  }
  if (!options.connected.empty()) {
    std::vector<MapFinding> found =
        CheckConnectedPairs(query, options.connected, options.half_extents);
    report.summary.push_back(absl::StrFormat("connected: %d pairs, %d without a complete path",
                                             options.connected.size(), found.size()));
    Append(std::move(found), &report);
  }
  return report;
}

}  // namespace waymesh
