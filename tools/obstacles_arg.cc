#include "obstacles_arg.h"

#include <iostream>

#include "cli_options.h"
#include "commands.h"
#include "waymesh/core/obstacles/carve_map.h"
#include "waymesh/obstacle_file/obstacle_file.h"

namespace waymesh::cli {

CLI::Option* AddObstaclesOption(CLI::App* cmd, std::string& path) {
  return cmd
      ->add_option("--obstacles", path,
                   "carve the obstacles of this JSON file into the map first "
                   "(docs/obstacles.md: cylinders, boxes, convex prisms; block or area)")
      ->check(CLI::ExistingFile);
}

int ApplyObstaclesArg(std::string_view verb, const std::string& path,
                      std::shared_ptr<const NavMap>* map, std::vector<Footprint>* footprints) {
  if (path.empty()) return kExitOk;
  absl::StatusOr<std::vector<Obstacle>> obstacles = ReadObstacleFile(path);
  if (!obstacles.ok()) {
    std::cerr << "waymesh " << verb << ": " << obstacles.status().message() << "\n";
    return kExitUsage;
  }
  absl::StatusOr<std::shared_ptr<const NavMap>> carved = CarveMap(*map, *obstacles);
  if (!carved.ok()) {
    std::cerr << "waymesh " << verb << ": " << path << ": " << carved.status().message() << "\n";
    return kExitFailure;
  }
  if (footprints != nullptr) {
    for (const Obstacle& o : *obstacles) {
      footprints->push_back(ObstacleFootprint(o, (*map)->info().agent));
    }
  }
  *map = *std::move(carved);
  return kExitOk;
}

}  // namespace waymesh::cli
