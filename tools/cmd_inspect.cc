// `waymesh inspect MAP.wmesh [--json]`: what a compiled map holds, after full validation.

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>

#include "absl/strings/str_format.h"
#include "cli_options.h"
#include "commands.h"
#include "map_arg.h"
#include "report_format.h"
#include "waymesh/format/map_tile_file.h"

namespace waymesh::cli {
namespace {

struct InspectArgs {
  std::string map_path;
  bool json = false;
};

// What the sections after the tiles hold; zero where the file has none.
struct StoredSections {
  uint64_t landmark_bytes = 0;
  uint32_t landmarks = 0;
  uint64_t twin_bytes = 0;
  PlanTwinReport twin;
};

// The map loaded, so its sections are valid.
StoredSections ReadStoredSections(const std::string& path) {
  StoredSections out;
  absl::StatusOr<std::unique_ptr<MapTileFile>> file = MapTileFile::Open(path);
  if (!file.ok()) return out;
  const MapDirectory& dir = (*file)->directory();
  absl::StatusOr<ExactLandmarkTable> table = (*file)->ReadExactLandmarks();
  if (table.ok() && !table->empty()) {
    out.landmark_bytes = dir.exact_landmarks.bytes;
    out.landmarks = table->count();
  }
  if (dir.plan_twin.bytes == 0) return out;
  absl::StatusOr<std::shared_ptr<const NavMap>> map = (*file)->ReadResident();
  if (!map.ok()) return out;
  absl::StatusOr<std::optional<PlanTwin>> twin = (*file)->ReadPlanTwin(**map);
  if (twin.ok() && twin->has_value()) {
    out.twin_bytes = dir.plan_twin.bytes;
    out.twin = (*twin)->report;
  }
  return out;
}

void PrintStoredSections(const StoredSections& s, uint64_t polygons, std::ostream& out) {
  const double per_polygon = 1.0 / std::max<double>(1, double(polygons));
  if (s.landmarks == 0) {
    out << "exact table  none (waymesh build --exact-landmarks stores one)\n";
  } else {
    out << absl::StrFormat("exact table  %d landmarks, %d bytes (%.1f bytes/polygon)\n",
                           s.landmarks, s.landmark_bytes, s.landmark_bytes * per_polygon);
  }
  if (s.twin_bytes == 0) {
    out << "plan twin    none (waymesh build --exact-twin stores one)\n";
  } else {
    out << absl::StrFormat("plan twin    %d polygons (%.2f of the map's), %d bytes (%.1f "
                           "bytes/polygon)\n",
                           s.twin.polygons_after, s.twin.polygons_after * per_polygon,
                           s.twin_bytes, s.twin_bytes * per_polygon);
  }
}

int RunInspect(const InspectArgs& args) {
  const std::shared_ptr<const NavMap> map =
      LoadMapArg("inspect", args.map_path, {.search_tables = false});
  if (map == nullptr) return kExitFailure;
  const uint64_t bytes = std::filesystem::file_size(args.map_path);
  const StoredSections sections = ReadStoredSections(args.map_path);
  if (args.json) {
    nlohmann::json summary = MapSummaryJson(*map, bytes);
    summary["exact_landmarks"] = {{"landmarks", sections.landmarks},
                                  {"bytes", sections.landmark_bytes}};
    summary["exact_twin"] = {{"polygons", sections.twin.polygons_after},
                             {"bytes", sections.twin_bytes}};
    std::cout << summary.dump(2) << "\n";
  } else {
    PrintMapSummary(*map, bytes, std::cout);
    PrintStoredSections(sections, map->info().polygon_count, std::cout);
  }
  return kExitOk;
}

}  // namespace

void RegisterInspect(CLI::App* cmd, int* exit_code) {
  auto args = std::make_shared<InspectArgs>();
  AddMapArg(cmd, args->map_path);
  cmd->add_flag("--json", args->json, "print the summary as JSON");
  cmd->callback([args, exit_code] { *exit_code = RunInspect(*args); });
}

}  // namespace waymesh::cli
