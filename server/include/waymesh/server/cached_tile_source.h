#pragma once
// The TileSource of a served map: tiles come from the shared TileCache, and on a miss are read
// from the map's file and validated. A tile that fails to load (the file was edited in place,
// a disk error) is logged and counted; the query sees it as unavailable.

#include <cstdint>
#include <memory>

#include "waymesh/core/tile_source.h"
#include "waymesh/format/map_tile_file.h"
#include "waymesh/server/tile_cache.h"

namespace waymesh::server {

class CachedTileSource : public TileSource {
 public:
  CachedTileSource(std::unique_ptr<MapTileFile> file, std::shared_ptr<TileCache> cache);
  // Forgets this map's tiles in the cache.
  ~CachedTileSource() override;

  std::shared_ptr<const TileView> Acquire(uint32_t index) const override;

  const MapTileFile& file() const { return *file_; }
  // `bytes` held beside this map's tiles, counted against the cache's budget (TileCache::Charge).
  std::shared_ptr<const void> Charge(uint64_t bytes) const { return cache_->Charge(bytes); }
  // Tiles of this map resident now.
  uint64_t resident_tiles() const { return cache_->ResidentTiles(owner_); }

 private:
  std::unique_ptr<MapTileFile> file_;
  std::shared_ptr<TileCache> cache_;
  uint64_t owner_;
};

}  // namespace waymesh::server
