#pragma once
// Loading a compiled map for a benchmark that builds the search tables itself (to time them or
// to vary them): the map's bytes only, and a clear exit when the file does not load.

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "waymesh/format/map_file.h"

namespace waymesh::bench {

// The map at `path` without search tables; prints the loader's error and exits with 1 when
// the file is not a loadable map.
inline std::shared_ptr<const NavMap> LoadMapWithoutTables(const std::string& path) {
  auto loaded = LoadMapFile(path, {.search_tables = false});
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s: %s\n", path.c_str(), std::string(loaded.status().message()).c_str());
    std::exit(1);
  }
  return *std::move(loaded);
}

}  // namespace waymesh::bench
