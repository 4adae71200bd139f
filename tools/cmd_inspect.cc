// `waymesh inspect MAP.wmesh [--json]`: what a compiled map holds, after full validation.

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
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

// The exact landmark section's size (0: none) and landmarks; the map loaded, so it is valid.
std::pair<uint64_t, uint32_t> ExactLandmarkSection(const std::string& path) {
  absl::StatusOr<std::unique_ptr<MapTileFile>> file = MapTileFile::Open(path);
  if (!file.ok()) return {0, 0};
  absl::StatusOr<ExactLandmarkTable> table = (*file)->ReadExactLandmarks();
  if (!table.ok() || table->empty()) return {0, 0};
  return {(*file)->directory().exact_landmarks.bytes, table->count()};
}

int RunInspect(const InspectArgs& args) {
  const std::shared_ptr<const NavMap> map =
      LoadMapArg("inspect", args.map_path, {.search_tables = false});
  if (map == nullptr) return kExitFailure;
  const uint64_t bytes = std::filesystem::file_size(args.map_path);
  const auto [exact_bytes, landmarks] = ExactLandmarkSection(args.map_path);
  const double per_polygon = double(exact_bytes) / std::max<double>(1, map->info().polygon_count);
  if (args.json) {
    nlohmann::json summary = MapSummaryJson(*map, bytes);
    summary["exact_landmarks"] = {{"landmarks", landmarks}, {"bytes", exact_bytes}};
    std::cout << summary.dump(2) << "\n";
  } else {
    PrintMapSummary(*map, bytes, std::cout);
    if (landmarks == 0) {
      std::cout << "exact table  none (waymesh build --exact-landmarks stores one)\n";
    } else {
      std::cout << absl::StrFormat("exact table  %d landmarks, %d bytes (%.1f bytes/polygon)\n",
                                   landmarks, exact_bytes, per_polygon);
    }
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
