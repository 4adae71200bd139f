// The map registry over a maps directory: what is served at startup, how new, changed,
// broken and removed files are handled on reload, and tiles paged through the cache.

#include "waymesh/server/map_registry.h"

#include <fstream>

#include "support/demo_town.h"
#include "gtest/gtest.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/loader/map_tile_file.h"

namespace waymesh::testing {
namespace {

server::MapRegistryOptions Options(const TempDir& dir, uint64_t budget = 64ull << 20) {
  server::MapRegistryOptions o;
  o.maps_dir = dir.path();
  o.tile_cache_bytes = budget;
  o.reload_poll_interval = absl::ZeroDuration();
  return o;
}

std::string Corrupted(std::string bytes) {
  bytes[bytes.size() - 40] ^= 0x5A;  // inside the last tile: only its CRC catches it
  return bytes;
}

TEST(MapRegistryTest, ServesGoodMapsAndSkipsBrokenOrBadlyNamedFiles) {
  TempDir dir;
  dir.Write("town.wmesh", Town(200, 7).bytes);
  dir.Write("broken.wmesh", Corrupted(Town(200, 7).bytes));
  dir.Write("bad name.wmesh", Town(200, 7).bytes);
  dir.Write("notes.txt", "not a map");
  auto registry = server::MapRegistry::Open(Options(dir));
  ASSERT_TRUE(registry.ok()) << registry.status();
  auto& maps = **registry;
  ASSERT_EQ(maps.List().size(), 1u);
  EXPECT_EQ(maps.List()[0]->id(), "town");
  EXPECT_EQ(maps.List()[0]->version(), 1u);
  EXPECT_TRUE(maps.List()[0]->map()->paged());
  EXPECT_EQ(maps.List()[0]->file_bytes(), Town(200, 7).bytes.size());
  EXPECT_EQ(maps.Find("broken").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(maps.reload_failures(), 1u);
  EXPECT_EQ(maps.reloads(), 0u);

  // The broken file is not retried until it changes; fixed, it is served.
  EXPECT_TRUE(maps.ReloadNow().ok());
  EXPECT_EQ(maps.reload_failures(), 1u);
  dir.Write("broken.wmesh", Town(200, 8).bytes);
  EXPECT_TRUE(maps.ReloadNow().ok());
  auto fixed = maps.Find("broken");
  ASSERT_TRUE(fixed.ok()) << fixed.status();
  EXPECT_EQ((*fixed)->map()->info().source_hash, Town(200, 8).map->info().source_hash);
  EXPECT_EQ(maps.reloads(), 1u);
}

TEST(MapRegistryTest, ReloadSwapsChangedMapsAndDropsRemovedOnes) {
  TempDir dir;
  dir.Write("a.wmesh", Town(200, 7).bytes);
  dir.Write("b.wmesh", Town(200, 7).bytes);
  auto registry = server::MapRegistry::Open(Options(dir));
  ASSERT_TRUE(registry.ok()) << registry.status();
  auto& maps = **registry;
  auto old_a = maps.Find("a");
  ASSERT_TRUE(old_a.ok());

  dir.Write("a.wmesh", Town(200, 8).bytes);
  ASSERT_EQ(std::remove((dir.path() + "/b.wmesh").c_str()), 0);
  EXPECT_TRUE(maps.ReloadNow().ok());
  auto new_a = maps.Find("a");
  ASSERT_TRUE(new_a.ok());
  EXPECT_EQ((*new_a)->version(), 2u);
  EXPECT_EQ((*new_a)->map()->info().source_hash, Town(200, 8).map->info().source_hash);
  EXPECT_EQ(maps.Find("b").status().code(), absl::StatusCode::kNotFound);

  // A query that holds the old version keeps a working map.
  NavQuery q((*old_a)->map());
  PathResult path;
  PathOptions po;
  ASSERT_TRUE(q.FindPath(ProbeAt(Town(200, 7), kProbeWestBank),
                         ProbeAt(Town(200, 7), kProbeEastBank), QueryFilter(), po, &path)
                  .ok());
  EXPECT_EQ(path.status, QueryStatus::kComplete);

  // A broken replacement leaves version 2 serving.
  dir.Write("a.wmesh", Corrupted(Town(200, 7).bytes));
  const absl::Status s = maps.ReloadNow();
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("a.wmesh"), std::string::npos) << s;
  EXPECT_EQ((*maps.Find("a"))->version(), 2u);
  EXPECT_EQ(maps.reload_failures(), 1u);
}

TEST(MapRegistryTest, AMissingDirectoryIsAClearError) {
  server::MapRegistryOptions o;
  o.maps_dir = "/nonexistent/waymesh-maps";
  auto registry = server::MapRegistry::Open(o);
  ASSERT_FALSE(registry.ok());
  EXPECT_NE(registry.status().message().find("--maps-dir /nonexistent/waymesh-maps"),
            std::string::npos)
      << registry.status();
}

TEST(MapRegistryTest, TilesArePagedUnderTheBudgetAndAnEditedFileFailsLoudly) {
  const DemoTown& town = Town(200, 7, /*tile_size=*/32);
  TempDir dir;
  dir.Write("town.wmesh", town.bytes);
  // A budget of one byte: every tile is read from the file while a query needs it, then let go.
  auto registry = server::MapRegistry::Open(Options(dir, 1));
  ASSERT_TRUE(registry.ok()) << registry.status();
  auto served = (*registry)->Find("town");
  ASSERT_TRUE(served.ok());
  NavQuery q((*served)->map());
  PathResult path;
  PathOptions po;
  // The longest path between two probes: it crosses many tiles.
  NavQuery reference(town.map);
  Vec3 a, b;
  double longest = 0;
  for (const auto& p : town.truth.probes) {
    for (const auto& r : town.truth.probes) {
      ASSERT_TRUE(reference.FindPath(p.position, r.position, QueryFilter(), po, &path).ok());
      if (path.status == QueryStatus::kComplete && path.length > longest) {
        longest = path.length;
        a = p.position;
        b = r.position;
      }
    }
  }
  for (int round = 0; round < 2; ++round) {
    ASSERT_TRUE(q.FindPath(a, b, QueryFilter(), po, &path).ok());
    ASSERT_EQ(path.status, QueryStatus::kComplete);
  }
  const double length = path.length;
  const server::TileCacheStats s = (*registry)->stats();
  ASSERT_GT(path.corridor.back().tile(), 0u);
  EXPECT_GT(s.misses, 2u) << "the second round read its tiles again";
  EXPECT_GT(s.evictions, 0u);

  // Someone edits the served file in place (not by rename): every tile's CRC is checked when
  // it is read, so the damage is found, logged and counted, and the answer is an error.
  auto file = MapTileFile::Open(dir.path() + "/town.wmesh");
  ASSERT_TRUE(file.ok());
  {
    std::fstream f(dir.path() + "/town.wmesh", std::ios::in | std::ios::out | std::ios::binary);
    for (const MapTileEntry& e : (*file)->directory().tiles) {
      f.seekp(std::streamoff(e.offset + e.bytes / 2));
      f.put('\x7f');
    }
  }
  const absl::Status broken = q.FindPath(a, b, QueryFilter(), po, &path);
  const bool refused = !broken.ok() || path.status == QueryStatus::kStartOffMesh;
  EXPECT_TRUE(refused) << "a damaged tile was served (length " << path.length << " vs " << length
                       << ")";
  EXPECT_GT((*registry)->stats().load_failures, 0u);
}

}  // namespace
}  // namespace waymesh::testing
