#pragma once
// The navmesh tiles resident in memory, over all served maps, kept under a byte budget by
// least-recently-used eviction. A tile held by a running query (a live pointer from Get) is
// pinned: it is never evicted, so a budget smaller than the tiles in use is exceeded rather
// than a query's tile freed. Thread-safe; loads run outside the lock.

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <utility>

#include "absl/container/flat_hash_map.h"
#include "absl/functional/function_ref.h"
#include "waymesh/core/nav_map.h"

namespace waymesh::server {

struct TileCacheStats {
  uint64_t hits = 0;            // Get answered from memory
  uint64_t misses = 0;          // Get had to load
  uint64_t evictions = 0;       // tiles dropped to stay under the budget
  uint64_t load_failures = 0;   // loads that failed (the tile stays unavailable)
  uint64_t resident_bytes = 0;  // bytes of the tiles held now, charged bytes included
  uint64_t charged_bytes = 0;   // of which held outside the cache (Charge)
  uint64_t resident_tiles = 0;
  uint64_t budget_bytes = 0;
};

class TileCache : public std::enable_shared_from_this<TileCache> {
 public:
  explicit TileCache(uint64_t budget_bytes) : budget_bytes_(budget_bytes) {}
  TileCache(const TileCache&) = delete;
  TileCache& operator=(const TileCache&) = delete;

  // A fresh owner key: each opened map version keeps its tiles under its own key.
  uint64_t NewOwner();

  // Tile `tile` of `owner`, from memory or from `load` (which returns nullptr on failure),
  // counting `bytes` against the budget. The result pins the tile while it lives.
  std::shared_ptr<const TileView> Get(uint64_t owner, uint32_t tile, uint64_t bytes,
                                      absl::FunctionRef<std::shared_ptr<const TileView>()> load);

  // Counts `bytes` of navmesh held outside the cache (tiles carved by obstacle layers, a map
  // read in full for carving) against the budget for as long as the returned handle lives:
  // unpinned tiles are evicted to make room, and a charge larger than what can be evicted
  // exceeds the budget, as pinned tiles do. The cache must be owned by a shared_ptr.
  std::shared_ptr<const void> Charge(uint64_t bytes);

  // Forgets every tile of `owner` (a map that was replaced or removed). Tiles still pinned are
  // freed when their last query lets go.
  void DropOwner(uint64_t owner);

  // Tiles of `owner` resident now.
  uint64_t ResidentTiles(uint64_t owner) const;
  TileCacheStats stats() const;

 private:
  using Key = std::pair<uint64_t, uint32_t>;  // (owner, tile)
  struct Entry {
    Key key;
    uint64_t bytes;
    std::shared_ptr<const TileView> tile;  // use_count() > 1: pinned by a query
  };
  using Lru = std::list<Entry>;  // most recently used first

  void Insert(Entry entry);        // mu_ held
  void EvictOverBudget();          // mu_ held
  void Erase(Lru::iterator it);    // mu_ held

  const uint64_t budget_bytes_;
  mutable std::mutex mu_;
  Lru lru_;
  absl::flat_hash_map<Key, Lru::iterator> index_;
  absl::flat_hash_map<uint64_t, uint64_t> tiles_per_owner_;
  uint64_t next_owner_ = 1;
  TileCacheStats stats_;
};

}  // namespace waymesh::server
