#pragma once
// The obstacles of one layer version, by id and by the tiles they reach. Versions share them in
// parts (buckets of ids, per-tile lists), and an update copies only the parts its obstacles are
// in: the bookkeeping of a change costs the same in a layer of 10 obstacles as in one of 4 000.

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/obstacles/footprint.h"
#include "waymesh/core/obstacles/obstacle.h"

namespace waymesh::obstacles {

// An obstacle of a layer, placed once when it is added or moved.
struct PlacedObstacle {
  Obstacle obstacle;
  Footprint footprint;
  std::vector<uint32_t> tiles;  // the tiles it may reach (FootprintsByTile)
};

class LayerObstacles {
 public:
  // No obstacles, on a map of `tile_count` tiles.
  explicit LayerObstacles(uint32_t tile_count);

  size_t size() const { return size_; }
  // nullptr when no obstacle has that id.
  const PlacedObstacle* Find(std::string_view id) const;
  // Adds `placed`, replacing the obstacle with its id.
  void Put(std::shared_ptr<const PlacedObstacle> placed);
  // Removes the obstacle `id`; false when there is none.
  bool Erase(std::string_view id);

  // The obstacles reaching any of `tiles`, in id order, each once.
  std::vector<const PlacedObstacle*> Reaching(std::span<const uint32_t> tiles) const;
  // Every obstacle, in id order.
  std::vector<Obstacle> All() const;
  // Bit a set when some area obstacle gives area a.
  uint64_t areas_given() const;

 private:
  // Sorted by id. Shared by the versions in which none of its obstacles changed.
  using Bucket = std::vector<std::shared_ptr<const PlacedObstacle>>;
  // A tile's obstacles, sorted by id; owned through the buckets of the same version.
  using TileList = std::vector<const PlacedObstacle*>;

  size_t BucketOf(std::string_view id) const;
  void Unlist(const PlacedObstacle& placed);
  void List(const PlacedObstacle& placed);
  void CountArea(const Obstacle& o, int delta);

  std::vector<std::shared_ptr<const Bucket>> buckets_;
  std::vector<std::shared_ptr<const TileList>> by_tile_;
  std::array<uint32_t, kMaxAreas> area_obstacles_{};  // per area id, area obstacles giving it
  size_t size_ = 0;
};

}  // namespace waymesh::obstacles
