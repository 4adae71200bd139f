#pragma once
// The maps a server serves: every `<id>.wmesh` in the maps directory (`<map_id>.wmesh` or
// `<map_id>@<agent_type>.wmesh`, map_name.h), opened paged (header and
// tile summaries in memory, tiles through one shared TileCache under the memory budget).
//
// A map is never served from the operator's file: it is copied into a private file of the spool
// directory (map_spool.h), that copy is validated in full (every tile's checksum and the
// structural checks) and tiles are read from it. So nothing done to the file afterwards (an
// edit in place, truncation, a bit flip, deletion, a directory or FIFO in its place) can change
// what a call sees.
//
// Hot reload: a new or changed file is taken only once it has settled (same size, mtime and
// inode for `settle`: a file still being written is left alone), then copied, validated and
// swapped in atomically while queries keep running on the version they started with. A file
// that fails validation leaves the serving version in place, is logged and counted. A file that
// disappears (or stops being a regular file) is unloaded only after `removal_grace`, so a
// delete-then-copy deploy keeps serving; if it returns in time the map is served throughout.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/format/map_tile_file.h"
#include "waymesh/server/cached_tile_source.h"
#include "waymesh/server/map_name.h"
#include "waymesh/server/map_spool.h"
#include "waymesh/server/tile_cache.h"

namespace waymesh::server {

inline constexpr char kMapFileSuffix[] = ".wmesh";

// One version of one served map. Immutable; queries hold it for as long as they run.
class ServedMap {
 public:
  ServedMap(std::string id, uint64_t version, std::shared_ptr<const NavMap> map,
            std::shared_ptr<const CachedTileSource> source, FileIdentity file, absl::Time loaded);

  // The registry key: the file name without .wmesh ("town", "town@ogre"; map_name.h).
  const std::string& id() const { return id_; }
  const std::string& map_id() const { return name_.map_id; }
  const std::string& agent_type() const { return name_.agent_type; }
  // 1 for the version loaded first, +1 for every reload.
  uint64_t version() const { return version_; }
  const std::shared_ptr<const NavMap>& map() const { return map_; }
  uint64_t file_bytes() const { return file_.size; }
  // The operator's file this version was copied from, as it was then.
  const FileIdentity& file_identity() const { return file_; }
  absl::Time loaded_time() const { return loaded_; }
  uint64_t resident_tiles() const { return source_->resident_tiles(); }

  // What a worker's query objects are keyed by: the id and version for the map itself; a key
  // and a process-unique number of their own for each obstacle layer version.
  const std::string& query_key() const { return query_key_; }
  uint64_t query_version() const { return query_version_; }
  // The obstacle layer this map carries ("" for the map itself).
  const std::string& obstacle_layer() const { return obstacle_layer_; }

  // This version of the map with `carved` (obstacles of `layer` carved into it) as its NavMap.
  std::shared_ptr<const ServedMap> WithObstacles(const std::string& layer,
                                                 std::shared_ptr<const NavMap> carved) const;
  // This version read in full from its private copy (every tile validated again), its tiles at
  // the generation of this version: what carving obstacles starts from.
  absl::StatusOr<std::shared_ptr<const NavMap>> ReadResident() const;
  // Bytes of tile `tile` in the map file: what the tile costs in memory, roughly.
  uint64_t tile_bytes(uint32_t tile) const { return source_->file().tile_bytes(tile); }
  // Counts `bytes` held for this map outside the tile cache (obstacle carving) against
  // --tile-cache-bytes while the handle lives.
  std::shared_ptr<const void> ChargeTileCache(uint64_t bytes) const {
    return source_->Charge(bytes);
  }

 private:
  std::string id_;
  MapName name_;
  uint64_t version_;
  std::shared_ptr<const NavMap> map_;
  std::shared_ptr<const CachedTileSource> source_;
  FileIdentity file_;
  absl::Time loaded_;
  std::string query_key_;
  uint64_t query_version_;
  std::string obstacle_layer_;
};

struct MapRegistryOptions {
  std::string maps_dir;
  std::string spool_dir = "/var/tmp";  // where private copies of the maps live (unnamed files)
  uint64_t tile_cache_bytes = 256ull << 20;
  absl::Duration reload_poll_interval = absl::Seconds(2);  // StartWatching's period
  // A new or changed file is taken once its size, mtime and inode have stayed the same this
  // long (seen by two passes at least this far apart); 0 takes it at first sight.
  absl::Duration settle = absl::Seconds(1);
  // A served map whose file is gone (or no longer a regular file) is unloaded this long after
  // a pass first missed it; 0 unloads at once.
  absl::Duration removal_grace = absl::Seconds(30);
  // What each map's search tables include beyond the default ones (the exact landmark table).
  SearchTables::Options tables;
};

class MapRegistry {
 public:
  // Opens every map in the directory (at startup nothing waits to settle). A map that fails
  // validation is logged, counted as a reload failure and not served; the directory itself
  // must be readable (else NotFound) and the spool usable (else FailedPrecondition).
  static absl::StatusOr<std::unique_ptr<MapRegistry>> Open(const MapRegistryOptions& options);
  ~MapRegistry();
  MapRegistry(const MapRegistry&) = delete;
  MapRegistry& operator=(const MapRegistry&) = delete;

  // The serving version of map `id`; NotFound when no such map is served.
  absl::StatusOr<std::shared_ptr<const ServedMap>> Find(const std::string& id) const;
  // Every served map, by id.
  std::vector<std::shared_ptr<const ServedMap>> List() const;

  // One pass over the directory now: loads new and changed files that have settled, unloads
  // maps whose files have been gone for the grace. The error of the first file that failed,
  // else OK.
  absl::Status ReloadNow();
  // Runs ReloadNow every reload_poll_interval on a thread of its own until StopWatching.
  void StartWatching();
  void StopWatching();

  TileCacheStats stats() const { return cache_->stats(); }
  uint64_t reloads() const;          // maps swapped in after startup
  uint64_t reload_failures() const;  // files that failed validation (startup included)
  uint64_t removals() const;         // maps unloaded after their file stayed gone for the grace
  uint64_t files_missing() const;    // served maps whose file is gone now (within the grace)
  const MapSpool& spool() const { return *spool_; }

 private:
  using Clock = std::chrono::steady_clock;
  // What the passes saw of one map file (scan_mu_ only).
  struct FileWatch {
    std::optional<FileIdentity> seen;             // at the last pass, when it was a regular file
    Clock::time_point seen_since;                 // the first pass that saw `seen`
    std::optional<Clock::time_point> gone_since;  // a served map's file missing since then
  };
  // A directory entry named like a map: its path, and its identity when a regular file.
  struct MapFileEntry {
    std::string path;
    std::optional<FileIdentity> identity;
  };

  explicit MapRegistry(const MapRegistryOptions& options);
  // The entries named <id>.wmesh with a valid id, by id. NotFound when the directory cannot
  // be read. Logs each badly named or non-regular entry once.
  absl::StatusOr<std::map<std::string, MapFileEntry>> ListMapFiles() const;
  absl::Status Scan(bool startup);
  // Whether `identity` of the file behind `watch` may be taken now (settled, or startup).
  bool Settled(FileWatch& watch, const FileIdentity& identity, bool startup,
               Clock::time_point now) const;
  // Loads one settled file; the first failure is kept in `first_error`.
  void Take(const std::string& id, const std::string& path, const FileIdentity& identity,
            bool startup, FileWatch& watch, absl::Status* first_error);
  // Starts or ends the removal grace of served maps whose file is not there.
  void ExpireMissing(const std::map<std::string, MapFileEntry>& files, Clock::time_point now);
  absl::StatusOr<std::shared_ptr<const ServedMap>> Load(const std::string& id,
                                                        const std::string& path,
                                                        uint64_t version) const;

  MapRegistryOptions options_;
  std::shared_ptr<TileCache> cache_;
  std::unique_ptr<MapSpool> spool_;

  std::mutex scan_mu_;  // one directory pass at a time; guards watch_ and warned_names_
  std::map<std::string, FileWatch> watch_;
  mutable std::set<std::string> warned_names_;  // entries logged as not served
  mutable std::mutex mu_;                       // guards the fields below
  std::map<std::string, std::shared_ptr<const ServedMap>> maps_;
  std::map<std::string, FileIdentity> failed_;  // files that failed, until they change again
  uint64_t reloads_ = 0;
  uint64_t reload_failures_ = 0;
  uint64_t removals_ = 0;
  uint64_t files_missing_ = 0;

  std::mutex watch_mu_;
  std::condition_variable watch_cv_;
  bool stop_watching_ = false;
  std::thread watcher_;
};

}  // namespace waymesh::server
