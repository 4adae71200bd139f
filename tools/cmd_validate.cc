// `waymesh validate MAP.wmesh [checks]`: fails a build pipeline (exit 1) when a map would break
// pathfinding on the server: checksums, topology, islands, walkable area, off-mesh links and
// pairs of positions that must stay connected. One line per finding.

#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "cli_options.h"
#include "commands.h"
#include "position_arg.h"
#include "waymesh/checks/map_checks.h"
#include "waymesh/format/map_file_check.h"
#include "waymesh/io/number_text.h"

namespace waymesh::cli {
namespace {

struct ValidateArgs {
  std::string map_path;
  uint64_t max_islands = 0;
  double min_island_area = 0, min_area = 0, max_area = 0;
  std::vector<std::pair<std::string, std::string>> connected;
  std::string extents = "2,4,2";
  bool no_topology = false, no_links = false;
  size_t max_findings = 50;
  // Which optional limits were given.
  const CLI::Option *max_islands_opt = nullptr, *min_island_area_opt = nullptr,
                    *min_area_opt = nullptr, *max_area_opt = nullptr;
};

// The checks the flags ask for, or a usage error.
absl::StatusOr<MapCheckOptions> CheckOptions(const ValidateArgs& args) {
  MapCheckOptions o;
  o.topology = !args.no_topology;
  o.off_mesh_links = !args.no_links;
  if (args.max_islands_opt->count()) o.max_islands = args.max_islands;
  if (args.min_island_area_opt->count()) o.min_island_area = args.min_island_area;
  if (args.min_area_opt->count()) o.min_area = args.min_area;
  if (args.max_area_opt->count()) o.max_area = args.max_area;
  if (o.min_area && o.max_area && *o.min_area > *o.max_area) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--min-area ", NumberText(*o.min_area), " is above --max-area ", NumberText(*o.max_area)));
  }
  absl::StatusOr<Vec3> extents = ParseHalfExtents(args.extents, "--extents");
  if (!extents.ok()) return extents.status();
  o.half_extents = *extents;
  absl::StatusOr<std::vector<std::pair<Vec3, Vec3>>> pairs =
      ParsePositionPairs(args.connected, "--connected");
  if (!pairs.ok()) return pairs.status();
  for (const auto& [a, b] : *pairs) o.connected.push_back({a, b});
  return o;
}

// Prints findings, at most `limit` per check, and a count line per check.
void PrintFindings(const std::vector<MapFinding>& findings, size_t limit) {
  std::map<std::string, size_t> per_check;
  for (const MapFinding& f : findings) {
    if (++per_check[f.check] <= limit) std::cout << "FAIL " << FindingLine(f) << "\n";
  }
  for (const auto& [check, count] : per_check) {
    if (count > limit) {
      std::cout << absl::StrFormat("FAIL %s: ... %d more (--max-findings %d)\n", check,
                                   count - limit, limit);
    }
  }
}

int RunValidate(const ValidateArgs& args) {
  absl::StatusOr<MapCheckOptions> options = CheckOptions(args);
  if (!options.ok()) {
    std::cerr << "waymesh validate: " << options.status().message() << "\n";
    return kExitUsage;
  }
  std::cout << "validate " << args.map_path << "\n";
  MapFileCheck file = CheckMapFile(args.map_path);
  if (!file.map) {
    PrintFindings(file.findings, args.max_findings);
    std::cout << absl::StrFormat("%s: FAILED, %d findings (the map does not load)\n", args.map_path,
                                 file.findings.size());
    return kExitFailure;
  }
  std::cout << absl::StrFormat("  checksum: header and %d tiles ok\n", file.map->tile_count());
  const MapCheckReport report = CheckMap(file.map, *options);
  for (const std::string& line : report.summary) std::cout << "  " << line << "\n";
  if (report.findings.empty()) {
    std::cout << args.map_path << ": OK\n";
    return kExitOk;
  }
  PrintFindings(report.findings, args.max_findings);
  std::cout << absl::StrFormat("%s: FAILED, %d findings\n", args.map_path, report.findings.size());
  return kExitFailure;
}

}  // namespace

void RegisterValidate(CLI::App* cmd, int* exit_code) {
  auto args = std::make_shared<ValidateArgs>();
  AddMapArg(cmd, args->map_path);
  args->max_islands_opt =
      cmd->add_option("--max-islands", args->max_islands, "fail when the map has more islands")
          ->check(CLI::NonNegativeNumber);
  args->min_island_area_opt = cmd->add_option("--min-island-area", args->min_island_area,
                                              "fail for every island smaller than this (m²)")
                                  ->check(CLI::NonNegativeNumber);
  args->min_area_opt = cmd->add_option("--min-area", args->min_area,
                                       "fail when the walkable area is below this (m²)")
                           ->check(CLI::NonNegativeNumber);
  args->max_area_opt = cmd->add_option("--max-area", args->max_area,
                                       "fail when the walkable area is above this (m²)")
                           ->check(CLI::NonNegativeNumber);
  cmd->add_option("--connected", args->connected,
                  "two positions x,y,z x,y,z that need a complete path; repeatable");
  AddExtents(cmd, args->extents, "--connected positions");
  cmd->add_flag("--no-topology", args->no_topology, "skip the topology checks");
  cmd->add_flag("--no-links", args->no_links, "skip the off-mesh link check");
  cmd->add_option("--max-findings", args->max_findings, "findings printed per check")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->callback([args, exit_code] { *exit_code = RunValidate(*args); });
}

}  // namespace waymesh::cli
