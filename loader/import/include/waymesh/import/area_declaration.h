#pragma once
// One `{"id", "name", "cost"}` area declaration, as both the Unity export and bake volume files
// write it: id in 0..63 and declared once, a name, a positive cost.

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/io/json_node.h"

namespace waymesh::importer {

// Reads `entry` (an object; the caller has checked its keys) into areas[id]. `declared_at`
// (kMaxAreas entries) remembers where each id was declared, for the duplicate error.
absl::Status ReadAreaDeclaration(const JsonNode& entry, std::vector<std::string>& declared_at,
                                 std::vector<std::optional<AreaType>>& areas);

}  // namespace waymesh::importer
