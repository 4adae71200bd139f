#include "report_format.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_format.h"
#include "waymesh/core/exact_landmark_table.h"

namespace waymesh::cli {
namespace {

constexpr size_t kIslandsListedInText = 8;

std::vector<uint32_t> IslandSizesLargestFirst(const MapInfo& info) {
  std::vector<uint32_t> sizes;
  sizes.reserve(info.islands.size());
  for (const IslandInfo& island : info.islands) sizes.push_back(island.polygons);
  std::sort(sizes.begin(), sizes.end(), std::greater<>());
  return sizes;
}

uint64_t IslandGroupCount(const MapInfo& info) {
  std::vector<uint32_t> groups;
  for (const IslandInfo& island : info.islands) groups.push_back(island.group);
  std::sort(groups.begin(), groups.end());
  return std::unique(groups.begin(), groups.end()) - groups.begin();
}

void PrintExactLandmarkBuild(const ExactLandmarkBuild& built, uint64_t polygons,
                             std::ostream& out) {
  if (built.landmarks == 0) {
    out << absl::StrFormat(
        "exact landmarks: none (%d polygons; maps under %d search fast without them)\n", polygons,
        ExactLandmarkTable::kMinPolygons);
    return;
  }
  out << absl::StrFormat(
      "exact landmarks: %d landmarks, %d bytes (%.1f bytes per polygon) in %.2f s\n",
      built.landmarks, built.section_bytes,
      double(built.section_bytes) / double(std::max<uint64_t>(polygons, 1)), built.seconds);
}

void PrintPlanTwinBuild(const PlanTwinBuild& built, std::ostream& out) {
  const PlanTwinReport& r = built.report;
  if (!built.stored) {
    out << absl::StrFormat(
        "plan twin: not stored: it would keep %d of %d polygons, more than 2/3 (exact mode "
        "searches the map itself)\n",
        r.polygons_after, r.polygons_before);
    return;
  }
  out << absl::StrFormat(
      "plan twin: %d -> %d polygons (%d inner vertices removed), %d bytes (%.1f bytes per "
      "polygon) in %.2f s\n",
      r.polygons_before, r.polygons_after, r.vertices_removed, built.section_bytes,
      double(built.section_bytes) / double(std::max<uint64_t>(r.polygons_before, 1)),
      built.seconds);
}

}  // namespace

void PrintStoredIndexBuild(const StoredIndexOptions& asked, const StoredIndexBuild& built,
                           uint64_t polygons, std::ostream& out) {
  if (asked.exact_landmarks) PrintExactLandmarkBuild(built.exact_landmarks, polygons, out);
  if (asked.exact_twin) PrintPlanTwinBuild(built.exact_twin, out);
}

void PrintRepairReport(const RepairReport& r, std::ostream& out) {
  out << absl::StrFormat("input        %d vertices, %d polygons (%d triangles)\n", r.input_vertices,
                         r.input_polygons, r.input_triangles);
  out << absl::StrFormat("weld         %d vertices welded -> %d vertices\n", r.counts.welded,
                         r.output_vertices);
  out << absl::StrFormat("degenerate   %d triangles dropped\n", r.counts.degenerate);
  out << absl::StrFormat("duplicates   %d triangles dropped\n", r.duplicates);
  out << absl::StrFormat("t-junctions  %d edges split\n", r.counts.t_junctions);
  out << absl::StrFormat("non-manifold %d edges paired by height and facing\n",
                         r.counts.non_manifold);
  out << absl::StrFormat("merge        %d triangles -> %d convex polygons\n", r.triangles,
                         r.polygons);
  out << absl::StrFormat("boundary     %d wall edges\n", r.boundary_edges);
  out << absl::StrFormat("links        %d off-mesh links attached, %d dropped\n", r.off_mesh_links,
                         r.off_mesh_links_dropped);
  for (const std::string& finding : r.findings) out << "  finding: " << finding << "\n";
}

nlohmann::json MapSummaryJson(const NavMap& map, uint64_t file_bytes) {
  const MapInfo& info = map.info();
  nlohmann::json areas = nlohmann::json::array();
  for (int id = 0; id < kMaxAreas; ++id) {
    const AreaType& area = info.areas[id];
    if (area.used) areas.push_back({{"id", id}, {"name", area.name}, {"cost", area.cost}});
  }
  const double polygons = std::max<double>(1, info.polygon_count);
  return {
      {"name", info.name},
      {"vertices", info.vertex_count},
      {"polygons", info.polygon_count},
      {"tiles", map.tile_count()},
      {"tile_grid",
       {{"width", info.grid_width}, {"height", info.grid_height}, {"tile_size", info.tile_size}}},
      {"islands", info.islands.size()},
      {"island_groups", IslandGroupCount(info)},
      {"island_polygons", IslandSizesLargestFirst(info)},
      {"walkable_area", info.walkable_area},
      {"off_mesh_links", info.off_mesh_link_count},
      {"areas", areas},
      {"bytes", file_bytes},
      {"bytes_per_polygon", file_bytes / polygons},
      {"bounds",
       {{"min", {info.bounds.min.x, info.bounds.min.y, info.bounds.min.z}},
        {"max", {info.bounds.max.x, info.bounds.max.y, info.bounds.max.z}}}},
      {"agent",
       {{"radius", info.agent.radius},
        {"height", info.agent.height},
        {"max_slope", info.agent.max_slope_deg},
        {"step_height", info.agent.step_height},
        {"voxel_size", info.agent.voxel_size}}},
      {"repairs",
       {{"welded", info.repairs.welded},
        {"t_junctions", info.repairs.t_junctions},
        {"non_manifold", info.repairs.non_manifold},
        {"degenerate", info.repairs.degenerate}}},
      {"source_hash", info.source_hash},
      {"build_tool_version", info.build_tool_version},
      {"checksums", "ok"},
  };
}

void PrintMapSummary(const NavMap& map, uint64_t file_bytes, std::ostream& out) {
  const MapInfo& info = map.info();
  const std::vector<uint32_t> sizes = IslandSizesLargestFirst(info);
  out << absl::StrFormat("map          %s (%s)\n", info.name, info.build_tool_version);
  out << absl::StrFormat("source       %s\n", info.source_hash);
  out << absl::StrFormat("bounds       (%.2f, %.2f, %.2f) .. (%.2f, %.2f, %.2f) m\n",
                         info.bounds.min.x, info.bounds.min.y, info.bounds.min.z, info.bounds.max.x,
                         info.bounds.max.y, info.bounds.max.z);
  out << absl::StrFormat("vertices     %d\n", info.vertex_count);
  out << absl::StrFormat("polygons     %d\n", info.polygon_count);
  out << absl::StrFormat("tiles        %d (grid %d x %d of %.1f m)\n", map.tile_count(),
                         info.grid_width, info.grid_height, info.tile_size);
  out << absl::StrFormat("walkable     %.1f m²\n", info.walkable_area);
  out << absl::StrFormat("islands      %d in %d groups, polygons per island:", sizes.size(),
                         IslandGroupCount(info));
  for (size_t i = 0; i < sizes.size() && i < kIslandsListedInText; ++i) out << " " << sizes[i];
  if (sizes.size() > kIslandsListedInText) out << " ...";
  out << "\n";
  out << absl::StrFormat("links        %d off-mesh links\n", info.off_mesh_link_count);
  out << "areas       ";
  for (int id = 0; id < kMaxAreas; ++id) {
    if (info.areas[id].used) {
      out << absl::StrFormat(" %d:%s(cost %.2f)", id, info.areas[id].name, info.areas[id].cost);
    }
  }
  out << "\n";
  out << absl::StrFormat("agent        radius %.2f m, height %.2f m, slope %.0f°, step %.2f m\n",
                         info.agent.radius, info.agent.height, info.agent.max_slope_deg,
                         info.agent.step_height);
  out << absl::StrFormat("repairs      %d welded, %d t-junctions, %d non-manifold, %d degenerate\n",
                         info.repairs.welded, info.repairs.t_junctions, info.repairs.non_manifold,
                         info.repairs.degenerate);
  out << absl::StrFormat("size         %d bytes, %.1f bytes/polygon\n", file_bytes,
                         double(file_bytes) / std::max<double>(1, info.polygon_count));
  out << "checksums    ok (header and every tile)\n";
}

}  // namespace waymesh::cli
