// `waymesh diff OLD.wmesh NEW.wmesh [-o diff.png|svg]`: what changed between two builds of a
// map. Like diff(1): exit 0 when nothing changed, 1 when something did, 2 on trouble (bad
// arguments, a map that does not load).

#include <iostream>
#include <memory>
#include <string>

#include "cli_options.h"
#include "commands.h"
#include "map_arg.h"
#include "waymesh/diff/map_diff.h"
#include "waymesh/render/diff_scene.h"
#include "waymesh/render/map_scene.h"
#include "waymesh/render/picture_file.h"
#include "waymesh/render/png_writer.h"

namespace waymesh::cli {
namespace {

struct DiffArgs {
  std::string old_path, new_path;
  std::string out_path;
  uint32_t pairs = 200;
  uint64_t seed = 1;
  size_t examples = 5;
  int width = 1024;
};

int RunDiff(const DiffArgs& args) {
  std::shared_ptr<const NavMap> maps[2];
  const std::string* paths[2] = {&args.old_path, &args.new_path};
  for (int i = 0; i < 2; ++i) {
    maps[i] = LoadMapArg("diff", *paths[i]);
    if (maps[i] == nullptr) return kExitUsage;
  }
  MapDiffOptions options;
  options.reachability_pairs = args.pairs;
  options.seed = args.seed;
  absl::StatusOr<MapDiff> diff = DiffMaps(maps[0], maps[1], options);
  if (!diff.ok()) {
    std::cerr << "waymesh diff: " << diff.status().message() << "\n";
    return kExitUsage;
  }
  std::cout << "--- " << args.old_path << "\n+++ " << args.new_path << "\n"
            << DescribeMapDiff(*diff, args.examples);
  if (!args.out_path.empty()) {
    absl::StatusOr<render::Scene> scene =
        render::BuildDiffScene(*maps[0], *maps[1], *diff, args.width);
    absl::Status written =
        scene.ok() ? render::WritePicture(*scene, args.out_path) : scene.status();
    render::ReleaseRenderCaches();
    if (!written.ok()) {
      std::cerr << "waymesh diff: " << written.message() << "\n";
      return kExitUsage;
    }
    std::cout << "picture: " << args.out_path << "\n";
  }
  return diff->HasChanges() ? kExitFailure : kExitOk;
}

}  // namespace

void RegisterDiff(CLI::App* cmd, int* exit_code) {
  auto args = std::make_shared<DiffArgs>();
  AddInputFile(cmd, "old", args->old_path, "the map before (.wmesh)");
  AddInputFile(cmd, "new", args->new_path, "the map after (.wmesh)");
  AddPictureOutput(cmd, args->out_path, "also draw the changes into this picture (.png or .svg)");
  cmd->add_option("--pairs", args->pairs, "sample point pairs whose reachability is compared")
      ->check(CLI::Range(0, 100000))
      ->capture_default_str();
  cmd->add_option("--seed", args->seed, "seed of the pair sampling")->capture_default_str();
  cmd->add_option("--examples", args->examples, "examples listed per kind of change")
      ->check(CLI::Range(0, 1000))
      ->capture_default_str();
  AddPictureWidth(cmd, args->width, "picture width in px");
  cmd->callback([args, exit_code] { *exit_code = RunDiff(*args); });
}

}  // namespace waymesh::cli
