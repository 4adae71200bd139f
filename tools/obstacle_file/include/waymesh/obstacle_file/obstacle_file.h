#pragma once
// Obstacle files for `waymesh path --obstacles` and `waymesh render --obstacles`
// (docs/obstacles.md): a JSON object whose "obstacles" array lists cylinders, oriented boxes and
// convex prisms in the map's frame, each blocking the surface or changing its area. Files come
// from outside: every field is checked, and an error names the file, the obstacle (its index and
// id) and the field.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/core/obstacles/obstacle.h"

namespace waymesh {

// Most obstacles one file may list: bounds memory for files from outside.
inline constexpr size_t kMaxObstaclesPerFile = 1'000'000;

// Parses an obstacle file; `origin` names the input in messages
// ("obstacles.json: obstacles[2] (\"wall-9\").points: is not convex at point 3").
absl::StatusOr<std::vector<Obstacle>> ParseObstacleFile(std::string_view json,
                                                        std::string_view origin);
// Reads and parses an obstacle file.
absl::StatusOr<std::vector<Obstacle>> ReadObstacleFile(const std::string& path);
// The obstacles as a file that ParseObstacleFile reads back to the same obstacles.
std::string ObstacleFileJson(const std::vector<Obstacle>& obstacles);

}  // namespace waymesh
