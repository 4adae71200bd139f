// The tile LRU: least recently used tiles go first, pinned tiles never go, the budget holds
// once pins are released, owners are dropped as a whole, failed loads are counted.

#include "waymesh/server/tile_cache.h"

#include <memory>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace waymesh::server {
namespace {

std::shared_ptr<const TileView> NewTile(uint32_t index) {
  auto t = std::make_shared<TileView>();
  t->index = index;
  return t;
}

// Gets tile `i` of `owner` (100 bytes each), recording whether it had to load.
std::shared_ptr<const TileView> Get(TileCache& cache, uint64_t owner, uint32_t i,
                                    bool* loaded = nullptr) {
  if (loaded) *loaded = false;
  return cache.Get(owner, i, 100, [&] {
    if (loaded) *loaded = true;
    return NewTile(i);
  });
}

TEST(TileCacheTest, EvictsTheLeastRecentlyUsedTileFirst) {
  TileCache cache(300);
  const uint64_t owner = cache.NewOwner();
  for (uint32_t i = 0; i < 3; ++i) Get(cache, owner, i);
  Get(cache, owner, 0);  // 0 is now the most recent; 1 the least
  Get(cache, owner, 3);  // over budget: 1 goes
  bool loaded;
  Get(cache, owner, 0, &loaded);
  EXPECT_FALSE(loaded);
  Get(cache, owner, 1, &loaded);
  EXPECT_TRUE(loaded);
  const TileCacheStats s = cache.stats();
  EXPECT_EQ(s.resident_bytes, 300u);
  EXPECT_EQ(s.resident_tiles, 3u);
  EXPECT_EQ(s.budget_bytes, 300u);
  EXPECT_EQ(s.misses, 5u);
  EXPECT_EQ(s.hits, 2u);
  EXPECT_EQ(s.evictions, 2u);
}

TEST(TileCacheTest, PinnedTilesSurviveAndTheBudgetHoldsOnceReleased) {
  TileCache cache(200);
  const uint64_t owner = cache.NewOwner();
  std::vector<std::shared_ptr<const TileView>> pins;
  for (uint32_t i = 0; i < 5; ++i) pins.push_back(Get(cache, owner, i));
  // All pinned: over budget, nothing evicted, every pointer still valid.
  EXPECT_EQ(cache.stats().resident_tiles, 5u);
  EXPECT_EQ(cache.stats().evictions, 0u);
  for (uint32_t i = 0; i < 5; ++i) EXPECT_EQ(pins[i]->index, i);
  pins.clear();
  Get(cache, owner, 9);  // the next insert trims back to the budget
  EXPECT_LE(cache.stats().resident_bytes, 200u);
  bool loaded;
  Get(cache, owner, 9, &loaded);
  EXPECT_FALSE(loaded) << "the tile just inserted must stay";
}

// Hits trim too (a released pin leaves the cache over budget with no insert to come), and
// when pins alone exceed the budget they must evict nothing pinned, however often they come.
TEST(TileCacheTest, HitsOverBudgetByPinsEvictOnlyReleasedTilesLeastRecentFirst) {
  TileCache cache(300);
  const uint64_t owner = cache.NewOwner();
  std::vector<std::shared_ptr<const TileView>> pins;
  for (uint32_t i = 0; i < 5; ++i) pins.push_back(Get(cache, owner, i));
  bool loaded;
  for (int round = 0; round < 3; ++round) {
    for (uint32_t i = 0; i < 5; ++i) {
      Get(cache, owner, i, &loaded);
      EXPECT_FALSE(loaded) << "tile " << i << " round " << round;
    }
  }
  EXPECT_EQ(cache.stats().evictions, 0u);
  EXPECT_EQ(cache.stats().resident_bytes, 500u);
  // Most recent first: 4 3 2 1 0. Releasing 2, 3 and 4 leaves 0 pinned at the cold end; a hit
  // on 1 must skip it and evict 2 then 3, stopping at the budget with 4 kept.
  pins.resize(2);
  Get(cache, owner, 1, &loaded);
  EXPECT_FALSE(loaded);
  EXPECT_EQ(cache.stats().evictions, 2u);
  EXPECT_EQ(cache.stats().resident_bytes, 300u);
  EXPECT_EQ(cache.ResidentTiles(owner), 3u);
  EXPECT_EQ(pins[0]->index, 0u);
  EXPECT_EQ(pins[1]->index, 1u);
  Get(cache, owner, 4, &loaded);
  EXPECT_FALSE(loaded) << "the most recent released tile fits the budget";
  Get(cache, owner, 0, &loaded);
  EXPECT_FALSE(loaded) << "a pinned tile at the cold end is never evicted";
  Get(cache, owner, 2, &loaded);
  EXPECT_TRUE(loaded) << "the least recent released tile went first";
}

TEST(TileCacheTest, ChargesEvictTilesAndGiveTheRoomBackWhenReleased) {
  auto cache = std::make_shared<TileCache>(300);
  const uint64_t owner = cache->NewOwner();
  for (uint32_t i = 0; i < 3; ++i) Get(*cache, owner, i);
  std::shared_ptr<const void> charge = cache->Charge(150);  // two tiles must go
  EXPECT_EQ(cache->stats().resident_tiles, 1u);
  EXPECT_EQ(cache->stats().resident_bytes, 250u);
  EXPECT_EQ(cache->stats().charged_bytes, 150u);
  EXPECT_EQ(cache->stats().evictions, 2u);
  bool loaded;
  Get(*cache, owner, 0, &loaded);  // room for one tile beside the charge
  EXPECT_TRUE(loaded);
  EXPECT_EQ(cache->stats().resident_tiles, 1u);
  charge.reset();
  EXPECT_EQ(cache->stats().charged_bytes, 0u);
  EXPECT_EQ(cache->stats().resident_bytes, 100u);
  for (uint32_t i = 1; i < 3; ++i) Get(*cache, owner, i);
  EXPECT_EQ(cache->stats().resident_tiles, 3u);
  EXPECT_EQ(cache->stats().evictions, 3u);
}

TEST(TileCacheTest, DropOwnerForgetsOnlyThatOwnersTiles) {
  TileCache cache(1000);
  const uint64_t a = cache.NewOwner(), b = cache.NewOwner();
  ASSERT_NE(a, b);
  for (uint32_t i = 0; i < 3; ++i) Get(cache, a, i);
  auto held = Get(cache, b, 0);
  Get(cache, b, 1);
  EXPECT_EQ(cache.ResidentTiles(a), 3u);
  EXPECT_EQ(cache.ResidentTiles(b), 2u);
  cache.DropOwner(b);
  EXPECT_EQ(cache.ResidentTiles(b), 0u);
  EXPECT_EQ(cache.ResidentTiles(a), 3u);
  EXPECT_EQ(held->index, 0u) << "a dropped tile still in use stays valid for its holder";
  EXPECT_EQ(cache.stats().resident_bytes, 300u);
}

TEST(TileCacheTest, FailedLoadsAreCountedAndNotCached) {
  TileCache cache(1000);
  const uint64_t owner = cache.NewOwner();
  EXPECT_EQ(cache.Get(owner, 4, 100, [] { return std::shared_ptr<const TileView>(); }), nullptr);
  EXPECT_EQ(cache.stats().load_failures, 1u);
  EXPECT_EQ(cache.stats().resident_tiles, 0u);
  bool loaded;
  EXPECT_NE(Get(cache, owner, 4, &loaded), nullptr);
  EXPECT_TRUE(loaded);
}

TEST(TileCacheConcurrencyTest, ManyThreadsStayWithinBudgetAndSeeTheirTiles) {
  TileCache cache(800);
  const uint64_t owner = cache.NewOwner();
  std::vector<std::thread> threads;
  std::atomic<int> wrong{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int k = 0; k < 2000; ++k) {
        const uint32_t i = uint32_t((k * 7 + t * 13) % 40);
        auto a = Get(cache, owner, i);
        auto b = Get(cache, owner, (i + 1) % 40);
        if (a->index != i || b->index != (i + 1) % 40) ++wrong;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(wrong, 0);
  EXPECT_LE(cache.stats().resident_bytes, 800u);
  const TileCacheStats s = cache.stats();
  EXPECT_EQ(s.hits + s.misses, 4u * 2000 * 2);
  EXPECT_GT(s.evictions, 0u);
}

}  // namespace
}  // namespace waymesh::server
