#include "exact/corner_cache.h"

namespace waymesh::internal::exact {

void CornerCache::Begin(const NavMap* map, const QueryFilter& filter) {
  if (map == map_ && filter.area_mask() == area_mask_ && filter.include_flags() == include_flags_ &&
      filter.exclude_flags() == exclude_flags_) {
    return;
  }
  Clear();
  map_ = map;
  area_mask_ = filter.area_mask();
  include_flags_ = filter.include_flags();
  exclude_flags_ = filter.exclude_flags();
}

void CornerCache::Clear() {
  // Keeps each tile's storage: the next map or filter likely reaches the same tiles.
  for (std::vector<uint8_t>& tile : by_tile_) tile.assign(tile.size(), kUnknown);
  map_ = nullptr;
}

void CornerCache::Store(uint32_t tile, uint32_t slot, size_t tile_slots, bool turn) {
  if (tile >= by_tile_.size()) by_tile_.resize(tile + 1);
  std::vector<uint8_t>& slots = by_tile_[tile];
  if (slots.size() < tile_slots) slots.resize(tile_slots, kUnknown);
  slots[slot] = turn ? kTurn : kStraight;
}

}  // namespace waymesh::internal::exact
