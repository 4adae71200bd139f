#pragma once
// The maps a server serves: every `<id>.wmesh` in the maps directory, opened paged (header and
// tile summaries in memory, tiles through one shared TileCache under the memory budget).
// Hot reload: a new or changed file is validated in full and swapped in atomically while
// queries keep running on the version they started with; a file that fails validation leaves
// the serving version in place, is logged and counted; a removed file stops being served.

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/loader/map_tile_file.h"
#include "waymesh/server/cached_tile_source.h"
#include "waymesh/server/tile_cache.h"

namespace waymesh::server {

inline constexpr char kMapFileSuffix[] = ".wmesh";

// One version of one served map. Immutable; queries hold it for as long as they run.
class ServedMap {
 public:
  ServedMap(std::string id, uint64_t version, std::shared_ptr<const NavMap> map,
            std::shared_ptr<const CachedTileSource> source, absl::Time loaded);

  const std::string& id() const { return id_; }
  // 1 for the version loaded first, +1 for every reload.
  uint64_t version() const { return version_; }
  const std::shared_ptr<const NavMap>& map() const { return map_; }
  uint64_t file_bytes() const { return source_->file().identity().size; }
  const FileIdentity& file_identity() const { return source_->file().identity(); }
  absl::Time loaded_time() const { return loaded_; }
  uint64_t resident_tiles() const { return source_->resident_tiles(); }

 private:
  std::string id_;
  uint64_t version_;
  std::shared_ptr<const NavMap> map_;
  std::shared_ptr<const CachedTileSource> source_;
  absl::Time loaded_;
};

struct MapRegistryOptions {
  std::string maps_dir;
  uint64_t tile_cache_bytes = 256ull << 20;
  absl::Duration reload_poll_interval = absl::Seconds(2);  // StartWatching's period
};

class MapRegistry {
 public:
  // Opens every map in the directory. A map that fails validation is logged, counted as a
  // reload failure and not served; the directory itself must be readable.
  static absl::StatusOr<std::unique_ptr<MapRegistry>> Open(const MapRegistryOptions& options);
  ~MapRegistry();
  MapRegistry(const MapRegistry&) = delete;
  MapRegistry& operator=(const MapRegistry&) = delete;

  // The serving version of map `id`; NotFound when no such map is served.
  absl::StatusOr<std::shared_ptr<const ServedMap>> Find(const std::string& id) const;
  // Every served map, by id.
  std::vector<std::shared_ptr<const ServedMap>> List() const;

  // One pass over the directory now: loads new and changed files, drops removed ones. The
  // error of the first file that failed, else OK.
  absl::Status ReloadNow();
  // Runs ReloadNow every reload_poll_interval on a thread of its own until StopWatching.
  void StartWatching();
  void StopWatching();

  TileCacheStats stats() const { return cache_->stats(); }
  uint64_t reloads() const;          // maps swapped in after startup
  uint64_t reload_failures() const;  // files that failed validation (startup included)

 private:
  explicit MapRegistry(const MapRegistryOptions& options);
  absl::Status Scan(bool startup);
  absl::StatusOr<std::shared_ptr<const ServedMap>> Load(const std::string& id,
                                                        const std::string& path,
                                                        uint64_t version) const;

  MapRegistryOptions options_;
  std::shared_ptr<TileCache> cache_;

  std::mutex scan_mu_;  // one directory pass at a time
  mutable std::mutex mu_;  // guards the fields below
  std::map<std::string, std::shared_ptr<const ServedMap>> maps_;
  std::map<std::string, FileIdentity> failed_;  // files that failed, until they change again
  uint64_t reloads_ = 0;
  uint64_t reload_failures_ = 0;

  std::mutex watch_mu_;
  std::condition_variable watch_cv_;
  bool stop_watching_ = false;
  std::thread watcher_;
};

}  // namespace waymesh::server
