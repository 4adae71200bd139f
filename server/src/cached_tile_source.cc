#include "waymesh/server/cached_tile_source.h"

#include <utility>

#include "spdlog/spdlog.h"

namespace waymesh::server {

CachedTileSource::CachedTileSource(std::unique_ptr<MapTileFile> file,
                                   std::shared_ptr<TileCache> cache)
    : file_(std::move(file)), cache_(std::move(cache)), owner_(cache_->NewOwner()) {}

CachedTileSource::~CachedTileSource() { cache_->DropOwner(owner_); }

std::shared_ptr<const TileView> CachedTileSource::Acquire(uint32_t index) const {
  if (index >= file_->directory().tiles.size()) return nullptr;
  return cache_->Get(owner_, index, file_->tile_bytes(index),
                     [&]() -> std::shared_ptr<const TileView> {
                       auto tile = file_->ReadTile(index);
                       if (tile.ok()) return *std::move(tile);
                       spdlog::error("cannot load tile {}: {}", index, std::string(tile.status().message()));
                       return nullptr;
                     });
}

}  // namespace waymesh::server
