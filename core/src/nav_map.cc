#include "waymesh/core/nav_map.h"

#include <mutex>

#include "waymesh/core/landmark_table.h"

namespace waymesh {

struct NavMap::LazyState {
  std::once_flag landmarks_once;
  LandmarkTable landmarks;
};

NavMap::NavMap(MapInfo info, std::vector<TileView> tiles, std::shared_ptr<const void> storage)
    : lazy_(std::make_shared<LazyState>()),
      info_(std::move(info)),
      tiles_(std::move(tiles)),
      storage_(std::move(storage)) {
  grid_.assign(size_t{info_.grid_width} * info_.grid_height, -1);
  for (const TileView& t : tiles_) {
    if (t.grid_x >= 0 && t.grid_z >= 0 && uint32_t(t.grid_x) < info_.grid_width &&
        uint32_t(t.grid_z) < info_.grid_height) {
      grid_[size_t(t.grid_z) * info_.grid_width + t.grid_x] = int32_t(t.index);
    }
  }
}

const TileView* NavMap::TileAt(int32_t x, int32_t z) const {
  if (x < 0 || z < 0 || uint32_t(x) >= info_.grid_width || uint32_t(z) >= info_.grid_height) {
    return nullptr;
  }
  int32_t i = grid_[size_t(z) * info_.grid_width + x];
  return i < 0 ? nullptr : &tiles_[i];
}

const LandmarkTable& NavMap::landmarks() const {
  std::call_once(lazy_->landmarks_once, [this] { lazy_->landmarks = LandmarkTable::Build(*this); });
  return lazy_->landmarks;
}

}  // namespace waymesh
