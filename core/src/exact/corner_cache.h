#pragma once
// Memo of IsTurnCorner verdicts by (tile, corner slot), kept per thread across queries while
// the map and the filter's pass rule (area mask, include and exclude flags) stay the same:
// a verdict walks the polygons round a vertex, and the searches of one map meet the same
// corners again and again. One byte per corner slot of each tile an exact search reached,
// indexed directly, so a lookup costs no hashing.

#include <cstdint>
#include <optional>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/query_filter.h"

namespace waymesh::internal::exact {

class CornerCache {
 public:
  // Starts a query on `map` with `filter`: forgets every verdict when either differs from the
  // previous query's.
  void Begin(const NavMap* map, const QueryFilter& filter);
  // Forgets every verdict (the context was pointed at another map).
  void Clear();
  // The verdict stored for corner slot `slot` (poly_start[p] + corner) of tile `tile`.
  std::optional<bool> Find(uint32_t tile, uint32_t slot) const {
    if (tile >= by_tile_.size() || slot >= by_tile_[tile].size()) return std::nullopt;
    const uint8_t v = by_tile_[tile][slot];
    if (v == kUnknown) return std::nullopt;
    return v == kTurn;
  }
  // Stores a verdict; `tile_slots` is the tile's number of corner slots.
  void Store(uint32_t tile, uint32_t slot, size_t tile_slots, bool turn);

 private:
  enum : uint8_t { kUnknown = 0, kStraight = 1, kTurn = 2 };

  std::vector<std::vector<uint8_t>> by_tile_;
  const NavMap* map_ = nullptr;
  uint64_t area_mask_ = 0;
  uint16_t include_flags_ = 0;
  uint16_t exclude_flags_ = 0;
};

}  // namespace waymesh::internal::exact
