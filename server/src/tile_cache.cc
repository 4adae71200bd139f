#include "waymesh/server/tile_cache.h"


namespace waymesh::server {

uint64_t TileCache::NewOwner() {
  std::lock_guard<std::mutex> lock(mu_);
  return next_owner_++;
}

std::shared_ptr<const TileView> TileCache::Get(
    uint64_t owner, uint32_t tile, uint64_t bytes,
    absl::FunctionRef<std::shared_ptr<const TileView>()> load) {
  const Key key{owner, tile};
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = index_.find(key); it != index_.end()) {
      ++stats_.hits;
      lru_.splice(lru_.begin(), lru_, it->second);
      std::shared_ptr<const TileView> tile = it->second->tile;
      // Tiles released since the last insert may have left the cache over budget.
      EvictOverBudget();
      return tile;
    }
    ++stats_.misses;
  }
  // Outside the lock: reading and validating a tile must not stall other queries. Two
  // queries missing the same tile may both load it; the first insert wins.
  std::shared_ptr<const TileView> loaded = load();
  std::lock_guard<std::mutex> lock(mu_);
  if (loaded == nullptr) {
    ++stats_.load_failures;
    return nullptr;
  }
  if (auto it = index_.find(key); it != index_.end()) return it->second->tile;
  Insert(Entry{key, bytes, loaded});
  EvictOverBudget();
  return loaded;
}

void TileCache::Insert(Entry entry) {
  stats_.resident_bytes += entry.bytes;
  ++stats_.resident_tiles;
  ++tiles_per_owner_[entry.key.first];
  lru_.push_front(std::move(entry));
  index_[lru_.front().key] = lru_.begin();
}

void TileCache::Erase(Lru::iterator it) {
  stats_.resident_bytes -= it->bytes;
  --stats_.resident_tiles;
  if (auto owner = tiles_per_owner_.find(it->key.first); --owner->second == 0) {
    tiles_per_owner_.erase(owner);
  }
  index_.erase(it->key);
  lru_.erase(it);
}

void TileCache::EvictOverBudget() {
  // From the least recently used end, skipping pinned tiles. A tile is pinned exactly when a
  // pointer other than ours exists; new pointers are only made under mu_, so a tile seen
  // unpinned here cannot become pinned before it is erased.
  for (auto it = lru_.end(); stats_.resident_bytes > budget_bytes_ && it != lru_.begin();) {
    --it;
    if (it->tile.use_count() > 1) continue;
    auto victim = it++;
    Erase(victim);
    ++stats_.evictions;
  }
}

std::shared_ptr<const void> TileCache::Charge(uint64_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stats_.resident_bytes += bytes;
    stats_.charged_bytes += bytes;
    EvictOverBudget();
  }
  // The handle keeps the cache alive: a layer version may outlive the registry's last use.
  return std::shared_ptr<const void>(nullptr, [cache = shared_from_this(), bytes](const void*) {
    std::lock_guard<std::mutex> lock(cache->mu_);
    cache->stats_.resident_bytes -= bytes;
    cache->stats_.charged_bytes -= bytes;
  });
}

void TileCache::DropOwner(uint64_t owner) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!tiles_per_owner_.contains(owner)) return;
  for (auto it = lru_.begin(); it != lru_.end();) {
    auto next = std::next(it);
    if (it->key.first == owner) Erase(it);
    it = next;
  }
}

uint64_t TileCache::ResidentTiles(uint64_t owner) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tiles_per_owner_.find(owner);
  return it == tiles_per_owner_.end() ? 0 : it->second;
}

TileCacheStats TileCache::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  TileCacheStats s = stats_;
  s.budget_bytes = budget_bytes_;
  return s;
}

}  // namespace waymesh::server
