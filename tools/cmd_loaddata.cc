// `waymesh loaddata MAP.wmesh --rpc FindPath --count N [-o FILE]`: request samples for load
// tests, written as the `data` array of a ghz config (docs: loadtest/README.md). Batch RPCs
// (FindPathBatch, ...) get --count messages of --batch-size requests each.

#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "cli_options.h"
#include "commands.h"
#include "map_arg.h"
#include "waymesh/format/map_file.h"
#include "waymesh/query_files/load_requests.h"

namespace waymesh::cli {
namespace {

struct LoadDataArgs {
  std::string map_path;
  std::string rpc = "FindPath";
  std::string out_path;
  LoadRequestOptions options;
};

int RunLoadData(LoadDataArgs& args) {
  absl::StatusOr<LoadRpc> rpc = ParseLoadRpc(args.rpc);
  if (!rpc.ok()) {
    std::cerr << "waymesh loaddata: " << rpc.status().message() << "\n";
    return kExitUsage;
  }
  args.options.rpc = *rpc;
  if (args.options.map_id.empty()) {
    args.options.map_id = std::filesystem::path(args.map_path).stem().string();
  }
  std::shared_ptr<const NavMap> map = LoadMapArg("loaddata", args.map_path);
  if (map == nullptr) return kExitFailure;
  absl::StatusOr<std::string> json = GenerateLoadRequests(map, args.options);
  if (!json.ok()) {
    std::cerr << "waymesh loaddata: " << json.status().message() << "\n";
    return json.status().code() == absl::StatusCode::kInvalidArgument ? kExitUsage : kExitFailure;
  }
  if (args.out_path.empty() || args.out_path == "-") {
    std::cout << *json;
    return kExitOk;
  }
  if (absl::Status s = WriteFileAtomically(args.out_path, *json); !s.ok()) {
    std::cerr << "waymesh loaddata: " << s.message() << "\n";
    return kExitFailure;
  }
  std::cerr << "wrote " << args.options.count << " " << args.rpc << " messages to " << args.out_path
            << "\n";
  return kExitOk;
}

}  // namespace

void RegisterLoadData(CLI::App* cmd, int* exit_code) {
  auto args = std::make_shared<LoadDataArgs>();
  AddMapArg(cmd, args->map_path);
  cmd->add_option("--rpc", args->rpc,
                  "FindPath, FindPathBatch, ValidateMove, ValidateMoveBatch, Raycast, "
                  "RaycastBatch, RandomPoint, NearestPoint, FindDistanceToWall or "
                  "FindPolygonsInCircle")
      ->capture_default_str();
  cmd->add_option("--count", args->options.count, "request messages to write (batch RPCs: batches)")
      ->capture_default_str();
  cmd->add_option("--batch-size", args->options.batch_size,
                  "requests in each message of a batch RPC (1..1024)")
      ->capture_default_str();
  cmd->add_option("--map-id", args->options.map_id,
                  "map id in the requests (default: the file name without .wmesh)");
  cmd->add_option("--seed", args->options.seed, "random seed")->capture_default_str();
  cmd->add_option("--zones", args->options.zones,
                  "zone-local load: requests start near this many random zone centres (0 = "
                  "anywhere)")
      ->capture_default_str();
  cmd->add_option("--zone-radius", args->options.zone_radius, "zone radius (metres)")
      ->capture_default_str();
  cmd->add_option("--max-path-distance", args->options.max_path_distance,
                  "FindPath goals within this distance of the start (0 = anywhere on its island)")
      ->capture_default_str();
  cmd->add_flag("--exact", args->options.exact_paths,
                "FindPath: exact paths (PATH_MODE_EXACT; off-mesh link areas left out of the "
                "filter when exact mode cannot take them)");
  cmd->add_option("--move-length", args->options.move_length, "ValidateMove move length (m)")
      ->capture_default_str();
  cmd->add_option("--ray-length", args->options.ray_length, "Raycast length (m)")
      ->capture_default_str();
  cmd->add_option("--radius", args->options.query_radius,
                  "FindDistanceToWall max_radius / FindPolygonsInCircle radius (m)")
      ->capture_default_str();
  cmd->add_option("-o,--output", args->out_path, "output file (default: standard output)");
  cmd->callback([args, exit_code] { *exit_code = RunLoadData(*args); });
}

}  // namespace waymesh::cli
