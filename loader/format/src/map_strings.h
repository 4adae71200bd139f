#pragma once
// The strings of a map's header block, in file order: the map name, source hash, build tool
// version, then the names of the 64 areas (docs/map-format.md).

#include <string>

#include "waymesh/core/nav_map.h"

namespace waymesh::wmesh {

// String `i` (< kStringCount) of `info`.
const std::string& MapString(const MapInfo& info, int i);
std::string* MutableMapString(MapInfo* info, int i);
// What string `i` is, for messages: "map name", "area 3 name", ...
std::string MapStringName(int i);

}  // namespace waymesh::wmesh
