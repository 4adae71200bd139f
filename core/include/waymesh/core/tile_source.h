#pragma once
// Where a paged map's tiles come from. A paged NavMap holds only its metadata and per-tile
// summaries; queries ask the source for each tile the first time they reach it and keep it
// pinned until the query ends, so a tile in use is never freed. The server implements this
// over its tile cache (LRU under a memory budget); core knows nothing of files or caches.

#include <cstdint>
#include <memory>

#include "waymesh/core/nav_map.h"

namespace waymesh {

class TileSource {
 public:
  virtual ~TileSource() = default;
  // Tile `index` (< the map's tile count), loaded if it is not in memory and kept in memory
  // while the returned pointer lives. nullptr when it cannot be loaded; the source records
  // why. Thread-safe.
  virtual std::shared_ptr<const TileView> Acquire(uint32_t index) const = 0;
};

}  // namespace waymesh
