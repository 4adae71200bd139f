#include "map_arg.h"

#include <iostream>

#include "absl/strings/match.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_structure.h"

namespace waymesh::cli {

std::shared_ptr<const NavMap> LoadMapArg(std::string_view verb, const std::string& path,
                                         const MapLoadOptions& options) {
  absl::StatusOr<std::shared_ptr<const NavMap>> map = LoadMapFile(path, options);
  if (map.ok()) return *std::move(map);
  std::cerr << "waymesh " << verb << ": " << map.status().message();
  if (absl::StartsWith(map.status().message(), kStructurallyBroken)) {
    std::cerr << "; `waymesh validate` lists every problem";
  }
  std::cerr << "\n";
  return nullptr;
}

}  // namespace waymesh::cli
