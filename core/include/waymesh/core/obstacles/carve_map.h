#pragma once
// A map version with obstacles carved into it: an ordinary immutable resident NavMap, so every
// query respects obstacles without knowing about them.

#include <memory>
#include <span>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/obstacles/obstacle.h"

namespace waymesh {
namespace obstacles {
struct BaseComponents;
}  // namespace obstacles

// A resident map prepared for carving: what every version carved from it reuses (each tile's
// own connected components, so islands are recomputed over tiles, not polygons). Immutable,
// shared by concurrent carves; keep one per loaded map.
class CarveBase {
 public:
  // FailedPrecondition for a paged map (obstacles need every tile resident).
  static absl::StatusOr<std::shared_ptr<const CarveBase>> Prepare(
      std::shared_ptr<const NavMap> map);
  ~CarveBase();

  const std::shared_ptr<const NavMap>& map() const { return map_; }
  const obstacles::BaseComponents& components() const { return *components_; }

 private:
  CarveBase() = default;
  std::shared_ptr<const NavMap> map_;
  std::unique_ptr<const obstacles::BaseComponents> components_;
};

// `base` with `obstacles` carved in. Tiles no obstacle changes are shared with `base`; changed
// tiles (cut ones, and neighbours whose edges or links had to follow) are new, at the next
// generation of the base tile, so references into them from `base` are detectably stale.
// Carving always starts from `base`: removing an obstacle is carving without it, which gives
// back the base polygons exactly. An empty list returns `base` itself. The new map carries no
// search tables (landmarks, dead ends): queries are correct without them, only slower.
// Errors: InvalidArgument for an invalid obstacle (ValidateObstacle), FailedPrecondition for a
// paged map or a polygon that would exceed tol::kMaxVertsPerPolyLimit corners.
absl::StatusOr<std::shared_ptr<const NavMap>> CarveMap(const CarveBase& base,
                                                       std::span<const Obstacle> obstacles);
// As above, preparing `base` on the way (a pass over every polygon: for one-off carves; a
// service keeps a CarveBase).
absl::StatusOr<std::shared_ptr<const NavMap>> CarveMap(std::shared_ptr<const NavMap> base,
                                                       std::span<const Obstacle> obstacles);

}  // namespace waymesh
