#pragma once
// Command-line positions and boxes: "x,y,z" in metres.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/core/vec3.h"

namespace waymesh::cli {

// Three finite numbers "x,y,z"; the error names `flag` and the text.
absl::StatusOr<Vec3> ParsePosition(std::string_view text, std::string_view flag);

// Each pair of "x,y,z" texts as two positions (for --connected and --path).
absl::StatusOr<std::vector<std::pair<Vec3, Vec3>>> ParsePositionPairs(
    const std::vector<std::pair<std::string, std::string>>& texts, std::string_view flag);

// A box half size "x,y,z": three finite, non-negative numbers.
absl::StatusOr<Vec3> ParseHalfExtents(std::string_view text, std::string_view flag);

}  // namespace waymesh::cli
