#pragma once
// Unity's built-in area table, used when an export declares no areas of its own.

#include <optional>
#include <vector>

#include "waymesh/core/nav_map.h"

namespace waymesh::importer {

// Walkable (0, cost 1), Not Walkable (1, cost 1) and Jump (2, cost 2), as a fresh Unity project
// defines them; `used` is false everywhere.
std::vector<std::optional<AreaType>> DefaultAreas();

}  // namespace waymesh::importer
