#pragma once
// `--obstacles FILE` of the verbs that query or draw a map: the obstacle file (docs/obstacles.md)
// read and carved into the map before the verb runs, as the server carves a layer.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "CLI/CLI.hpp"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/obstacles/footprint.h"

namespace waymesh::cli {

CLI::Option* AddObstaclesOption(CLI::App* cmd, std::string& path);

// With `path` empty, does nothing. Otherwise reads the obstacle file, replaces *map by the map
// with its obstacles carved in and, when `footprints` is not null, appends their footprints.
// Returns kExitOk, or after printing "waymesh <verb>: <why>" kExitUsage for a bad file (it
// names the obstacle and the field) and kExitFailure when carving fails.
int ApplyObstaclesArg(std::string_view verb, const std::string& path,
                      std::shared_ptr<const NavMap>* map, std::vector<Footprint>* footprints);

}  // namespace waymesh::cli
