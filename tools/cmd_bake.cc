// `waymesh bake GEOMETRY.obj -o MAP.wmesh`: bake a navmesh from level geometry with Recast,
// repair and compile it like `waymesh build`.

#include <chrono>
#include <iostream>
#include <memory>
#include <string>

#include "absl/strings/str_format.h"
#include "cli_options.h"
#include "commands.h"
#include "report_format.h"
#include "waymesh/bake/baker.h"
#include "waymesh/format/map_file.h"

namespace waymesh::cli {
namespace {

// Recast's warnings printed; the report keeps more.
constexpr size_t kPrintedWarnings = 10;
// Per-tile progress lines are printed at most once per this fraction of the bake.
constexpr double kTileProgressStep = 0.01;

struct BakeArgs {
  std::string geometry;
  std::string output;
  std::string areas;
  BakeSettings settings;
  bool voxel_size_given = false;
  BakeMapOptions options;
  bool quiet = false;
};

// Unity's default voxel size is a third of the agent radius.
void ApplyDefaultVoxelSize(BakeArgs& args) {
  AgentSettings& agent = args.settings.agent;
  if (!args.voxel_size_given && agent.radius > 0) agent.voxel_size = agent.radius / 3;
}

ProgressFn ProgressPrinter(std::chrono::steady_clock::time_point start) {
  auto last_tile = std::make_shared<double>(-1.0);
  return [start, last_tile](std::string_view step, double fraction) {
    if (step.starts_with("bake tile")) {
      if (fraction < 1.0 && fraction - *last_tile < kTileProgressStep) return;
      *last_tile = fraction;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cerr << absl::StrFormat("[%5.1fs %3.0f%%] %s\n", seconds, 100 * fraction, step);
  };
}

void PrintBakeReport(const BakeReport& r, std::ostream& out) {
  out << absl::StrFormat(
      "bake: %d triangles (%d walkable), %d x %d tiles, %d baked, "
      "%d with surface, %d Recast polygons, %d detail triangles, %d volumes\n",
      r.input_triangles, r.walkable_triangles, r.grid_width, r.grid_height, r.tiles_baked,
      r.tiles_with_surface, r.recast_polygons, r.detail_triangles, r.volumes);
  for (size_t i = 0; i < r.warnings.size() && i < kPrintedWarnings; ++i) {
    out << "  warning: " << r.warnings[i] << "\n";
  }
  if (r.warnings.size() > kPrintedWarnings) {
    out << absl::StrFormat("  (%d more warnings)\n", r.warnings.size() - kPrintedWarnings);
  }
}

int RunBake(BakeArgs& args) {
  ApplyDefaultVoxelSize(args);
  if (absl::Status valid = ValidateBakeSettings(args.settings); !valid.ok()) {
    std::cerr << "waymesh bake: " << valid.message() << "\n";
    return kExitUsage;
  }
  const auto start = std::chrono::steady_clock::now();
  const ProgressFn progress = args.quiet ? nullptr : ProgressPrinter(start);
  absl::StatusOr<BakeResult> baked =
      BakeMap(args.geometry, args.areas, args.settings, args.options, progress);
  if (!baked.ok()) {
    std::cerr << "waymesh bake: " << baked.status().message() << "\n";
    return kExitFailure;
  }
  if (absl::Status written = WriteFileAtomically(args.output, baked->build.bytes); !written.ok()) {
    std::cerr << "waymesh bake: " << written.message() << "\n";
    return kExitFailure;
  }
  PrintBakeReport(baked->bake, std::cout);
  PrintRepairReport(baked->build.report, std::cout);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << absl::StrFormat("wrote %s: %d bytes, %d polygons, %d islands in %.2f s\n",
                               args.output, baked->build.bytes.size(),
                               baked->build.info.polygon_count, baked->build.info.islands.size(),
                               seconds);
  PrintStoredIndexBuild(args.options.stored, baked->build.stored,
                        baked->build.info.polygon_count, std::cout);
  return kExitOk;
}

}  // namespace

void RegisterBake(CLI::App* cmd, int* exit_code) {
  auto args = std::make_shared<BakeArgs>();
  BakeSettings& s = args->settings;
  AddInputFile(cmd, "geometry", args->geometry, "level geometry (.obj)");
  AddMapOutput(cmd, args->output);
  cmd->add_option("--areas", args->areas,
                  "JSON file of area volumes, area types and off-mesh links (docs/bake.md)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--agent-radius", s.agent.radius, "agent radius (m)")->capture_default_str();
  cmd->add_option("--agent-height", s.agent.height, "agent height (m)")->capture_default_str();
  cmd->add_option("--max-slope", s.agent.max_slope_deg, "steepest walkable slope (degrees)")
      ->capture_default_str()
      ->check(CLI::Range(0.0f, kMaxBakeSlope));
  cmd->add_option("--step-height", s.agent.step_height, "highest step the agent climbs (m)")
      ->capture_default_str();
  cmd->add_option("--voxel-size", s.agent.voxel_size,
                  "voxel (cell) size in X-Z (m); default: agent radius / 3")
      ->check(CLI::Range(kMinBakeVoxelSize, kMaxBakeVoxelSize))
      ->each([args](const std::string&) { args->voxel_size_given = true; });
  cmd->add_option("--cell-height", s.cell_height, "voxel height (m); default: voxel size / 2");
  cmd->add_option("--min-region-area", s.min_region_area,
                  "drop isolated walkable patches smaller than this (m²)")
      ->capture_default_str();
  cmd->add_option("--tile-size", s.tile_size, "tile edge length (voxels)")
      ->capture_default_str()
      ->check(CLI::Range(kMinBakeTileSize, kMaxBakeTileSize));
  cmd->add_flag("--mirror-x", args->options.import.mirror_x,
                "negate X on import (undoes exporters that mirror the X axis)");
  AddExactLandmarksFlag(cmd, args->options.stored.exact_landmarks);
  AddExactTwinFlag(cmd, args->options.stored.exact_twin);
  cmd->add_flag("-q,--quiet", args->quiet, "no progress lines");
  cmd->callback([args, exit_code] { *exit_code = RunBake(*args); });
}

}  // namespace waymesh::cli
