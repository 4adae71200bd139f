// The map registry over a maps directory: what is served at startup, how new, changed,
// broken and removed files are handled on reload (settling, the removal grace, things that are
// not files), tiles paged through the cache, and edits in place that never reach a served map.

#include "waymesh/server/map_registry.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "gtest/gtest.h"
#include "support/defect_maps.h"
#include "support/demo_town.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/format/map_tile_file.h"
#include "waymesh/format/map_tiles.h"

namespace waymesh::testing {
namespace {

server::MapRegistryOptions Options(const TempDir& dir, uint64_t budget = 64ull << 20) {
  server::MapRegistryOptions o;
  o.maps_dir = dir.path();
  o.tile_cache_bytes = budget;
  o.reload_poll_interval = absl::ZeroDuration();
  o.settle = absl::ZeroDuration();
  o.removal_grace = absl::ZeroDuration();
  return o;
}

// Writes `bytes` over the existing file at `path`: same inode, as `cp` does.
void OverwriteInPlace(const std::string& path, const std::string& bytes) {
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary | std::ios::trunc);
  ASSERT_TRUE(f.good()) << path;
  f.write(bytes.data(), std::streamsize(bytes.size()));
}

// A registry over `dir`, which gets the demo town, unloading gone files after `grace`.
std::unique_ptr<server::MapRegistry> OpenTownWithGrace(const TempDir& dir, absl::Duration grace) {
  dir.Write("town.wmesh", Town(200, 7).bytes);
  server::MapRegistryOptions options = Options(dir);
  options.removal_grace = grace;
  auto registry = server::MapRegistry::Open(options);
  EXPECT_TRUE(registry.ok()) << registry.status();
  return registry.ok() ? *std::move(registry) : nullptr;
}

std::string SourceHash(const server::MapRegistry& maps, const std::string& id) {
  auto map = maps.Find(id);
  return map.ok() ? (*map)->map()->info().source_hash
                  : "(" + std::string(map.status().message()) + ")";
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

  // Someone edits the served file in place (not by rename), in every tile. The map is served
  // from the server's private copy, so tiles read from now on are the validated ones.
  auto file = MapTileFile::Open(dir.path() + "/town.wmesh");
  ASSERT_TRUE(file.ok());
  {
    std::fstream f(dir.path() + "/town.wmesh", std::ios::in | std::ios::out | std::ios::binary);
    for (const MapTileEntry& e : (*file)->directory().tiles) {
      f.seekp(std::streamoff(e.offset + e.bytes / 2));
      f.put('\x7f');
    }
  }
  const uint64_t misses = (*registry)->stats().misses;
  ASSERT_TRUE(q.FindPath(a, b, QueryFilter(), po, &path).ok());
  EXPECT_EQ(path.status, QueryStatus::kComplete);
  EXPECT_EQ(path.length, length);
  EXPECT_GT((*registry)->stats().misses, misses) << "the tiles were read again";
  EXPECT_EQ((*registry)->stats().load_failures, 0u);
}

TEST(MapRegistryTest, WritesInPlaceNeverChangeTheServedMap) {
  TempDir dir;
  const std::string path = dir.path() + "/town.wmesh";
  dir.Write("town.wmesh", Town(200, 7).bytes);
  server::MapRegistryOptions options = Options(dir, 1);  // every tile read when needed
  options.settle = absl::Milliseconds(200);
  auto registry = server::MapRegistry::Open(options);
  ASSERT_TRUE(registry.ok()) << registry.status();
  server::MapRegistry& maps = **registry;
  const std::string first = Town(200, 7).map->info().source_hash;
  const std::string second = Town(200, 8).map->info().source_hash;

  // Half a new map written in place, then truncated: the served map is untouched, and nothing
  // is taken while the file keeps changing.
  const std::string& next = Town(200, 8).bytes;
  OverwriteInPlace(path, next.substr(0, next.size() / 2));
  EXPECT_TRUE(maps.ReloadNow().ok());
  ASSERT_EQ(::truncate(path.c_str(), 1000), 0);
  EXPECT_TRUE(maps.ReloadNow().ok());
  EXPECT_EQ(SourceHash(maps, "town"), first);
  NavQuery q((*maps.Find("town"))->map());
  PathResult path_result;
  ASSERT_TRUE(q.FindPath(ProbeAt(Town(200, 7), kProbeWestBank),
                         ProbeAt(Town(200, 7), kProbeEastBank), QueryFilter(), PathOptions(),
                         &path_result)
                  .ok());
  EXPECT_EQ(path_result.status, QueryStatus::kComplete);

  // The whole new map, in place: taken once it has stayed the same for the settle time.
  OverwriteInPlace(path, next);
  EXPECT_TRUE(maps.ReloadNow().ok());
  EXPECT_EQ(SourceHash(maps, "town"), first) << "taken before it settled";
  std::this_thread::sleep_for(std::chrono::milliseconds(250));
  EXPECT_TRUE(maps.ReloadNow().ok());
  EXPECT_EQ(SourceHash(maps, "town"), second);
  EXPECT_EQ(maps.reloads(), 1u);
  EXPECT_EQ(maps.reload_failures(), 0u);
  EXPECT_EQ((*maps.Find("town"))->file_bytes(), next.size());
}

TEST(MapRegistryTest, AFileGoneIsServedOnForTheGraceAndARestoreKeepsItServing) {
  TempDir dir;
  const std::string path = dir.path() + "/town.wmesh";
  std::unique_ptr<server::MapRegistry> registry = OpenTownWithGrace(dir, absl::Milliseconds(300));
  ASSERT_NE(registry, nullptr);
  server::MapRegistry& maps = *registry;

  ASSERT_EQ(::unlink(path.c_str()), 0);
  EXPECT_TRUE(maps.ReloadNow().ok());
  EXPECT_TRUE(maps.Find("town").ok());
  EXPECT_EQ(maps.files_missing(), 1u);
  // A directory in its place counts as gone, and is never opened.
  ASSERT_EQ(::mkdir(path.c_str(), 0755), 0);
  EXPECT_TRUE(maps.ReloadNow().ok());
  EXPECT_TRUE(maps.Find("town").ok());
  ASSERT_EQ(::rmdir(path.c_str()), 0);
  dir.Write("town.wmesh", Town(200, 7).bytes);  // restored within the grace
  EXPECT_TRUE(maps.ReloadNow().ok());
  EXPECT_TRUE(maps.Find("town").ok());
  EXPECT_EQ(maps.files_missing(), 0u);
  std::this_thread::sleep_for(std::chrono::milliseconds(350));
  EXPECT_TRUE(maps.ReloadNow().ok());
  EXPECT_TRUE(maps.Find("town").ok()) << "restored, yet unloaded after the grace";
  EXPECT_EQ(maps.removals(), 0u);

  ASSERT_EQ(::unlink(path.c_str()), 0);
  EXPECT_TRUE(maps.ReloadNow().ok());
  EXPECT_TRUE(maps.Find("town").ok());
  std::this_thread::sleep_for(std::chrono::milliseconds(350));
  EXPECT_TRUE(maps.ReloadNow().ok());
  EXPECT_EQ(maps.Find("town").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(maps.removals(), 1u);
  EXPECT_EQ(maps.files_missing(), 0u);
}

TEST(MapRegistryTest, AFifoInPlaceOfAMapNeitherBlocksNorUnloadsIt) {
  TempDir dir;
  const std::string path = dir.path() + "/town.wmesh";
  dir.Write("other.wmesh", Town(200, 8).bytes);
  std::unique_ptr<server::MapRegistry> registry = OpenTownWithGrace(dir, absl::Seconds(30));
  ASSERT_NE(registry, nullptr);
  server::MapRegistry& maps = *registry;
  const std::string fifo = dir.path() + "/fifo.tmp";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
  ASSERT_EQ(::rename(fifo.c_str(), path.c_str()), 0);
  // A FIFO opened for reading waits for a writer: the pass would never end if it did.
  EXPECT_TRUE(maps.ReloadNow().ok());
  EXPECT_TRUE(maps.Find("town").ok());
  EXPECT_TRUE(maps.Find("other").ok());
  // Directly too: neither the copy nor the loader waits on it.
  EXPECT_EQ(maps.spool().Copy(path).status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(MapTileFile::Open(path).status().code(), absl::StatusCode::kInvalidArgument);
}

// Such a map once passed loading and then broke ListMaps and GetMapInfo for every client.
TEST(MapRegistryTest, AMapNamedInBytesThatAreNotUtf8IsNotServed) {
  std::string bytes = Town(200, 7).bytes;
  const std::string& name = Town(200, 7).map->info().name;
  const size_t at = bytes.find(name);
  ASSERT_NE(at, std::string::npos);
  bytes[at] = '\xff';
  ResealMapChecksums(std::as_writable_bytes(std::span(bytes)));
  TempDir dir;
  dir.Write("town.wmesh", Town(200, 7).bytes);
  dir.Write("latin1.wmesh", bytes);
  auto registry = server::MapRegistry::Open(Options(dir));
  ASSERT_TRUE(registry.ok()) << registry.status();
  EXPECT_EQ((*registry)->List().size(), 1u);
  EXPECT_EQ((*registry)->Find("latin1").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ((*registry)->reload_failures(), 1u);
}

// Checksums cannot tell a structurally broken map (here a polygon linked to itself, sealed
// with valid CRCs): the server refuses what `waymesh validate` flags.
TEST(MapRegistryTest, AStructurallyBrokenMapIsNotServed) {
  RepairedMesh mesh = Unity1000Mesh();
  mesh.poly_neighbors[mesh.poly_start[5]] = 5;
  TempDir dir;
  dir.Write("broken.wmesh", CompileOrDie(mesh));
  dir.Write("sound.wmesh", CompileOrDie(Unity1000Mesh()));
  auto registry = server::MapRegistry::Open(Options(dir));
  ASSERT_TRUE(registry.ok()) << registry.status();
  EXPECT_TRUE((*registry)->Find("sound").ok());
  EXPECT_EQ((*registry)->Find("broken").status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ((*registry)->reload_failures(), 1u);
}

TEST(MapRegistryTest, AnUnusableSpoolDirectoryIsAClearError) {
  TempDir dir;
  dir.Write("town.wmesh", Town(200, 7).bytes);
  server::MapRegistryOptions options = Options(dir);
  options.spool_dir = dir.path() + "/no-such-dir";
  auto registry = server::MapRegistry::Open(options);
  ASSERT_FALSE(registry.ok());
  EXPECT_EQ(registry.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(registry.status().message().find("--spool-dir"), std::string::npos)
      << registry.status();
}

TEST(MapSpoolTest, ACopyIsPrivateAndEqualToTheFileAsItWas) {
  TempDir dir;
  const std::string path = dir.path() + "/town.wmesh";
  const std::string& bytes = Town(200, 7).bytes;
  dir.Write("town.wmesh", bytes);
  auto spool = server::MapSpool::Open(dir.path());
  ASSERT_TRUE(spool.ok()) << spool.status();
  auto copy = (*spool)->Copy(path);
  ASSERT_TRUE(copy.ok()) << copy.status();
  EXPECT_EQ(copy->source.size, bytes.size());
  // The copy has no name in the spool: only the map and nothing else is in the directory.
  const std::filesystem::directory_iterator listing(dir.path());
  EXPECT_EQ(std::distance(begin(listing), end(listing)), 1);
  OverwriteInPlace(path, std::string(bytes.size(), 'x'));
  std::string read(bytes.size(), '\0');
  EXPECT_EQ(::pread(copy->fd, read.data(), read.size(), 0), ssize_t(bytes.size()));
  EXPECT_TRUE(read == bytes) << "the copy changed with the original";
  ::close(copy->fd);
  EXPECT_EQ((*spool)->Copy(dir.path() + "/missing.wmesh").status().code(),
            absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace waymesh::testing
