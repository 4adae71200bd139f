#pragma once
// A map version with obstacles carved into it: an ordinary immutable resident NavMap, so every
// query respects obstacles without knowing about them.

#include <memory>
#include <span>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/obstacles/obstacle.h"

namespace waymesh {

// `base` with `obstacles` carved in. Tiles no obstacle changes are shared with `base`; changed
// tiles (cut ones, and neighbours whose edges or links had to follow) are new, at the next
// generation of the base tile, so references into them from `base` are detectably stale.
// Carving always starts from `base`: removing an obstacle is carving without it, which gives
// back the base polygons exactly. An empty list returns `base` itself. The new map carries no
// search tables (landmarks, dead ends): queries are correct without them, only slower.
// Errors: InvalidArgument for an invalid obstacle (ValidateObstacle), FailedPrecondition for a
// paged map or a polygon that would exceed tol::kMaxVertsPerPolyLimit corners.
absl::StatusOr<std::shared_ptr<const NavMap>> CarveMap(std::shared_ptr<const NavMap> base,
                                                       std::span<const Obstacle> obstacles);

}  // namespace waymesh
