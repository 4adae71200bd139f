#pragma once
// A layer of obstacles carved into a map, changed one update at a time. Each version is
// immutable and shared by the queries running on it; an update makes a new version that
// re-cuts only the tiles the changed obstacles' old and new footprints reach and reuses the
// cut polygons of every other tile from the previous version. The result is bit-identical to
// CarveMap of the whole final set (in id order) from the base, except for generations: a tile
// keeps its generation while its polygons and links stay the same, has its base generation
// while it is the base tile, and otherwise moves to a generation it never had in this layer,
// so a reference taken on an older version is stale.

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/obstacles/carve_map.h"
#include "waymesh/core/obstacles/obstacle.h"

namespace waymesh {
namespace obstacles {
struct LayerTiles;
class LayerObstacles;
}  // namespace obstacles

class CarvedLayer {
 public:
  // The layer without obstacles: its map is the base map itself.
  static std::shared_ptr<const CarvedLayer> Empty(std::shared_ptr<const CarveBase> base);
  ~CarvedLayer();

  const std::shared_ptr<const NavMap>& map() const { return map_; }
  const std::shared_ptr<const CarveBase>& base() const { return base_; }
  size_t obstacle_count() const;
  // The obstacles in id order (the order CarveMap is given to reproduce this version).
  std::vector<Obstacle> obstacles() const;
  // Bit a set when some area obstacle of the layer gives area a (CanShareSearchTables).
  uint64_t obstacle_areas() const;

 private:
  friend absl::StatusOr<std::shared_ptr<const CarvedLayer>> ApplyObstacleChanges(
      const CarvedLayer&, std::span<const Obstacle>, std::span<const std::string>);
  CarvedLayer() = default;

  std::shared_ptr<const CarveBase> base_;
  std::shared_ptr<const NavMap> map_;
  // By id and by tile: each obstacle with its footprint and the tiles it reaches (computed
  // once, when it is added or moved; shared by the versions that hold it).
  std::shared_ptr<const obstacles::LayerObstacles> obstacles_;
  // Per tile, its cut polygons and (when it differs from the base tile) its built state: the
  // map's storage, and what the next version shares or rebuilds from.
  std::shared_ptr<const obstacles::LayerTiles> tiles_;
  // Per tile, the latest generation it had in any version of this layer: a changed tile takes
  // the next one, so a reference into any older version is stale.
  std::vector<uint32_t> last_generation_;
};

// `previous` with `upserts` added or moved (an id already in the layer is replaced) and the
// obstacles named by `removals` taken out. Errors: InvalidArgument for an invalid obstacle or an
// id given twice in one update, NotFound for a removal of an id not in the layer,
// FailedPrecondition as CarveMap.
absl::StatusOr<std::shared_ptr<const CarvedLayer>> ApplyObstacleChanges(
    const CarvedLayer& previous, std::span<const Obstacle> upserts,
    std::span<const std::string> removals);

}  // namespace waymesh
