#pragma once
// The compiled map a verb was given on its command line.

#include <memory>
#include <string>
#include <string_view>

#include "waymesh/core/nav_map.h"
#include "waymesh/format/map_file.h"

namespace waymesh::cli {

// The map at `path`; nullptr after printing "waymesh <verb>: <why it does not load>" to stderr.
// The caller picks the exit code (a verb like diff treats it as trouble, not failure). Verbs
// that search paths keep the default options (the map's search tables are built).
std::shared_ptr<const NavMap> LoadMapArg(std::string_view verb, const std::string& path,
                                         const MapLoadOptions& options = {});

}  // namespace waymesh::cli
