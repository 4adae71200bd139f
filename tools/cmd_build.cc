// `waymesh build INPUT... -o MAP.wmesh`: import, repair and compile one map.

#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "cli_options.h"
#include "commands.h"
#include "report_format.h"
#include "waymesh/build/map_build.h"
#include "waymesh/format/map_file.h"

namespace waymesh::cli {
namespace {

struct BuildArgs {
  std::vector<std::string> inputs;
  std::string output;
  BuildOptions options;
  bool quiet = false;
};

int RunBuild(const BuildArgs& args) {
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  ProgressFn progress;
  if (!args.quiet) {
    progress = [&](std::string_view step, double fraction) {
      std::cerr << absl::StrFormat("[%5.1fs %3.0f%%] %s\n", elapsed(), 100 * fraction, step);
    };
  }
  absl::StatusOr<BuildResult> built = BuildMap(args.inputs, args.options, progress);
  if (!built.ok()) {
    std::cerr << "waymesh build: " << built.status().message() << "\n";
    return kExitFailure;
  }
  if (absl::Status written = WriteFileAtomically(args.output, built->bytes); !written.ok()) {
    std::cerr << "waymesh build: " << written.message() << "\n";
    return kExitFailure;
  }
  PrintRepairReport(built->report, std::cout);
  std::cout << absl::StrFormat("wrote %s: %d bytes, %d polygons, %d islands in %.2f s\n",
                               args.output, built->bytes.size(), built->info.polygon_count,
                               built->info.islands.size(), elapsed());
  PrintStoredIndexBuild(args.options.stored, built->stored, built->info.polygon_count, std::cout);
  return kExitOk;
}

}  // namespace

void RegisterBuild(CLI::App* cmd, int* exit_code) {
  auto args = std::make_shared<BuildArgs>();
  RepairOptions& repair = args->options.repair;
  AddInputFile(cmd, "inputs", args->inputs, "export files; several are welded into one world");
  AddMapOutput(cmd, args->output);
  cmd->add_option("--weld", repair.weld_tolerance, "vertex weld distance (m)")
      ->capture_default_str()
      ->check(CLI::Range(0.0f, 1.0f));
  cmd->add_option("--t-junction", repair.t_junction_tolerance,
                  "distance at which a vertex splits an edge (m)")
      ->capture_default_str()
      ->check(CLI::Range(0.0f, 1.0f));
  cmd->add_option("--merge-height", repair.merge_height_tolerance,
                  "max height deviation of a merged polygon from its plane (m)")
      ->capture_default_str()
      ->check(CLI::Range(0.0f, 10.0f));
  cmd->add_option("--max-verts", repair.max_verts_per_poly,
                  "max corners of a merged polygon (3 = keep triangles)")
      ->capture_default_str()
      ->check(CLI::Range(3, tol::kMaxVertsPerPolyLimit));
  cmd->add_flag(
      "--no-merge", [args](int64_t) { args->options.repair.merge = false; },
      "keep the input polygons instead of merging triangles");
  cmd->add_option("--tile-size", repair.tile_size, "tile edge length (m)")
      ->capture_default_str()
      ->check(CLI::Range(1.0f, 100000.0f));
  cmd->add_flag("--mirror-x", args->options.import.mirror_x,
                "negate X on import (undoes exporters that mirror the X axis)");
  AddExactLandmarksFlag(cmd, args->options.stored.exact_landmarks);
  AddExactTwinFlag(cmd, args->options.stored.exact_twin);
  cmd->add_flag("-q,--quiet", args->quiet, "no progress lines");
  cmd->callback([args, exit_code] { *exit_code = RunBuild(*args); });
}

}  // namespace waymesh::cli
