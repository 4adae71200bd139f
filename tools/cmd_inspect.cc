// `waymesh inspect MAP.wmesh [--json]`: what a compiled map holds, after full validation.

#include <filesystem>
#include <iostream>
#include <string>

#include "cli_options.h"
#include "commands.h"
#include "map_arg.h"
#include "report_format.h"

namespace waymesh::cli {
namespace {

struct InspectArgs {
  std::string map_path;
  bool json = false;
};

int RunInspect(const InspectArgs& args) {
  const std::shared_ptr<const NavMap> map =
      LoadMapArg("inspect", args.map_path, {.search_tables = false});
  if (map == nullptr) return kExitFailure;
  const uint64_t bytes = std::filesystem::file_size(args.map_path);
  if (args.json) {
    std::cout << MapSummaryJson(*map, bytes).dump(2) << "\n";
  } else {
    PrintMapSummary(*map, bytes, std::cout);
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
