#include "map_arg.h"

#include <iostream>

#include "waymesh/loader/map_file.h"

namespace waymesh::cli {

std::shared_ptr<const NavMap> LoadMapArg(std::string_view verb, const std::string& path,
                                         const MapLoadOptions& options) {
  absl::StatusOr<std::shared_ptr<const NavMap>> map = LoadMapFile(path, options);
  if (map.ok()) return *std::move(map);
  std::cerr << "waymesh " << verb << ": " << map.status().message() << "\n";
  return nullptr;
}

}  // namespace waymesh::cli
