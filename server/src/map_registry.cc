#include "waymesh/server/map_registry.h"

#include <dirent.h>
#include <sys/stat.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "spdlog/spdlog.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/server/map_name.h"

namespace waymesh::server {
namespace {

// The polygon generation of a map's version (1, 2, ...; wraps as generations do).
uint32_t GenerationOfVersion(uint64_t version) {
  return uint32_t((version - 1) % PolyRef::kMaxGeneration) + 1;
}

// "a directory", "a FIFO", ...: what stands where a map file should be.
const char* FileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "not a regular file";
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

ServedMap::ServedMap(std::string id, uint64_t version, std::shared_ptr<const NavMap> map,
                     std::shared_ptr<const CachedTileSource> source, FileIdentity file,
                     absl::Time loaded)
    : id_(std::move(id)),
      name_(SplitMapKey(id_)),
      version_(version),
      map_(std::move(map)),
      source_(std::move(source)),
      file_(file),
      loaded_(loaded),
      query_key_(id_),
      query_version_(version) {}

std::shared_ptr<const ServedMap> ServedMap::WithObstacles(
    const std::string& layer, std::shared_ptr<const NavMap> carved) const {
  // Layer versions number their query objects apart from every map version.
  static std::atomic<uint64_t> next_query_version{1};
  auto view = std::make_shared<ServedMap>(*this);
  view->map_ = std::move(carved);
  view->obstacle_layer_ = layer;
  view->query_key_ = absl::StrCat(id_, "+", layer);
  view->query_version_ = next_query_version.fetch_add(1, std::memory_order_relaxed);
  return view;
}

absl::StatusOr<std::shared_ptr<const NavMap>> ServedMap::ReadResident() const {
  absl::StatusOr<std::shared_ptr<const NavMap>> resident = source_->file().ReadResident();
  if (!resident.ok()) return resident.status();
  // The same generation as the paged map, so references handed out on it stay valid on the
  // tiles obstacles leave alone.
  const NavMap& m = **resident;
  std::vector<TileView> tiles(m.tiles().begin(), m.tiles().end());
  const uint32_t generation = m.tile_count() > 0 ? map_->generation(0) : kFirstGeneration;
  return std::make_shared<const NavMap>(m.info(), std::move(tiles), *resident, generation);
}

MapRegistry::MapRegistry(const MapRegistryOptions& options)
    : options_(options), cache_(std::make_shared<TileCache>(options.tile_cache_bytes)) {}

MapRegistry::~MapRegistry() { StopWatching(); }

absl::StatusOr<std::unique_ptr<MapRegistry>> MapRegistry::Open(const MapRegistryOptions& options) {
  std::unique_ptr<MapRegistry> registry(new MapRegistry(options));
  absl::StatusOr<std::unique_ptr<MapSpool>> spool = MapSpool::Open(options.spool_dir);
  if (!spool.ok()) return spool.status();
  registry->spool_ = *std::move(spool);
  absl::Status s = registry->Scan(/*startup=*/true);
  // A bad map is not served (and was logged); only an unreadable directory stops the server.
  if (!s.ok() && s.code() == absl::StatusCode::kNotFound) return s;
  if (registry->List().empty()) spdlog::warn("no maps in {}", options.maps_dir);
  return registry;
}

absl::StatusOr<std::shared_ptr<const ServedMap>> MapRegistry::Load(const std::string& id,
                                                                   const std::string& path,
                                                                   uint64_t version) const {
  const auto start = std::chrono::steady_clock::now();
  absl::StatusOr<SpooledFile> copy = spool_->Copy(path);
  if (!copy.ok()) return copy.status();
  const double copy_seconds = SecondsSince(start);
  const FileIdentity source_file = copy->source;
  const SpoolCopyMethod method = copy->method;
  absl::StatusOr<std::unique_ptr<MapTileFile>> file = MapTileFile::OpenDescriptor(copy->fd, path);
  if (!file.ok()) return file.status();
  // Every tile is validated now, so a served map has no bad tile to find later. The map is
  // resident for this step only: what the paged map keeps is derived from it, then it goes.
  absl::StatusOr<std::shared_ptr<const NavMap>> resident = (*file)->ReadResident();
  if (!resident.ok()) return resident.status();
  // Landmarks make A* both faster and closer to the shortest path, and dead ends let it skip
  // polygons (search_tables.h: 34 + 8 B per polygon, 68 + 8 on maps with areas cheaper than
  // walking). A paged map cannot build them (every tile at once), so they are built here from
  // the resident map and kept.
  // The exact landmark table and the plan twin: the ones the file stores (`waymesh build
  // --exact-landmarks --exact-twin`), whatever the flags say; else built here when
  // --exact-landmarks / --exact-twin ask (options_.tables).
  StoredSearchTables stored;
  absl::StatusOr<ExactLandmarkTable> landmarks = (*file)->ReadExactLandmarks();
  if (!landmarks.ok()) return landmarks.status();
  stored.exact_landmarks = *std::move(landmarks);
  absl::StatusOr<std::optional<PlanTwin>> twin = (*file)->ReadPlanTwin(**resident);
  if (!twin.ok()) return twin.status();
  stored.exact_twin = *std::move(twin);
  auto tables = std::make_shared<const SearchTables>(
      SearchTables::Build(**resident, options_.tables, std::move(stored)));
  MapDigest digest = (*resident)->digest();
  resident->reset();
  MapInfo info = (*file)->directory().info;
  auto source = std::make_shared<const CachedTileSource>(*std::move(file), cache_);
  // Each version's polygons carry their own generation, so references handed out before a
  // reload are refused after it (poly_ref.h).
  const NavMap paged(std::move(info), std::move(digest), source, GenerationOfVersion(version));
  auto map = std::make_shared<const NavMap>(paged, std::move(tables));
  spdlog::debug("map '{}': private copy by {} in {:.3f} s, loaded in {:.3f} s in all", id,
                SpoolCopyMethodName(method), copy_seconds, SecondsSince(start));
  return std::make_shared<const ServedMap>(id, version, std::move(map), std::move(source),
                                           source_file, absl::Now());
}

absl::StatusOr<std::map<std::string, MapRegistry::MapFileEntry>> MapRegistry::ListMapFiles() const {
  const std::string& dir = options_.maps_dir;
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("--maps-dir ", dir, ": cannot open: ", std::strerror(errno)));
  }
  std::map<std::string, MapFileEntry> files;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (!absl::EndsWith(name, kMapFileSuffix)) continue;
    const std::string id = name.substr(0, name.size() - std::strlen(kMapFileSuffix));
    MapFileEntry entry{absl::StrCat(dir, "/", name), std::nullopt};
    // stat, not open: looking at a FIFO or device must not wait or have side effects.
    struct stat st;
    if (::stat(entry.path.c_str(), &st) != 0) continue;  // removed meanwhile (or a dangling link)
    if (absl::Status s = ValidateMapKey(id); !s.ok()) {
      if (!warned_names_.contains(name)) {
        spdlog::warn("{}: not served: {}", entry.path, std::string(s.message()));
        warned_names_.insert(name);
      }
      continue;
    }
    if (S_ISREG(st.st_mode)) {
      entry.identity = FileIdentity{uint64_t(st.st_dev), uint64_t(st.st_ino), uint64_t(st.st_size),
                                    int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
    } else if (!warned_names_.contains(name)) {
      spdlog::warn("{}: {}, not a map file: ignored", entry.path, FileKind(st.st_mode));
      warned_names_.insert(name);
    }
    if (entry.identity) warned_names_.erase(name);
    files.emplace(id, std::move(entry));
  }
  ::closedir(d);
  return files;
}

bool MapRegistry::Settled(FileWatch& watch, const FileIdentity& identity, bool startup,
                          Clock::time_point now) const {
  if (watch.seen != identity) {
    watch.seen = identity;
    watch.seen_since = now;
  }
  if (startup || options_.settle <= absl::ZeroDuration()) return true;
  return now - watch.seen_since >= absl::ToChronoNanoseconds(options_.settle);
}

void MapRegistry::Take(const std::string& id, const std::string& path, const FileIdentity& identity,
                       bool startup, FileWatch& watch, absl::Status* first_error) {
  std::shared_ptr<const ServedMap> current;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (auto it = maps_.find(id); it != maps_.end()) current = it->second;
  }
  const uint64_t version = current == nullptr ? 1 : current->version() + 1;
  absl::StatusOr<std::shared_ptr<const ServedMap>> loaded = Load(id, path, version);
  if (!loaded.ok() && (loaded.status().code() == absl::StatusCode::kAborted ||
                       loaded.status().code() == absl::StatusCode::kFailedPrecondition)) {
    // Changed (or replaced by a non-file) between the look and the copy: look again later.
    spdlog::debug("map '{}': {}", id, std::string(loaded.status().message()));
    watch.seen.reset();
    return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  if (!loaded.ok()) {
    ++reload_failures_;
    // An I/O error (a full spool) is tried again at the next pass; a bad file when it changes.
    if (loaded.status().code() != absl::StatusCode::kUnavailable) failed_[id] = identity;
    spdlog::error("map '{}' not {}: {}", id,
                  current ? "reloaded (the old version serves on)" : "loaded",
                  std::string(loaded.status().message()));
    if (first_error->ok()) *first_error = loaded.status();
    return;
  }
  failed_.erase(id);
  maps_[id] = *loaded;
  const NavMap& map = *(*loaded)->map();
  spdlog::info("map '{}' {} (version {}): {} polygons in {} tiles, {} bytes", id,
               current ? "reloaded" : "loaded", version, map.info().polygon_count, map.tile_count(),
               (*loaded)->file_bytes());
  if (!startup) ++reloads_;
}

void MapRegistry::ExpireMissing(const std::map<std::string, MapFileEntry>& files,
                                Clock::time_point now) {
  std::vector<std::string> served;
  {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [id, map] : maps_) served.push_back(id);
  }
  uint64_t missing = 0;
  for (const std::string& id : served) {
    auto file = files.find(id);
    FileWatch& watch = watch_[id];
    if (file != files.end() && file->second.identity) {
      if (watch.gone_since) spdlog::info("map '{}': its file is back", id);
      watch.gone_since.reset();
      continue;
    }
    const auto grace = absl::ToChronoNanoseconds(options_.removal_grace);
    if (!watch.gone_since) {
      watch.gone_since = now;
      if (grace.count() > 0) {
        spdlog::warn(
            "map '{}': {}/{}{} is gone or not a regular file; the loaded version serves on and "
            "is unloaded in {} unless the file returns",
            id, options_.maps_dir, id, kMapFileSuffix,
            absl::FormatDuration(options_.removal_grace));
      }
    }
    if (now - *watch.gone_since < grace) {
      ++missing;
      continue;
    }
    std::lock_guard<std::mutex> lock(mu_);
    maps_.erase(id);
    failed_.erase(id);
    ++removals_;
    watch_.erase(id);
    spdlog::warn("map '{}' unloaded: its file has been gone from {} for {}", id, options_.maps_dir,
                 absl::FormatDuration(options_.removal_grace));
  }
  std::lock_guard<std::mutex> lock(mu_);
  files_missing_ = missing;
}

absl::Status MapRegistry::Scan(bool startup) {
  std::lock_guard<std::mutex> scan_lock(scan_mu_);
  absl::StatusOr<std::map<std::string, MapFileEntry>> files = ListMapFiles();
  if (!files.ok()) {
    if (!startup) spdlog::error("hot reload: {}", std::string(files.status().message()));
    return files.status();
  }
  const Clock::time_point now = Clock::now();
  absl::Status first_error;
  for (const auto& [id, entry] : *files) {
    if (!entry.identity) continue;  // the removal grace below covers it
    FileWatch& watch = watch_[id];
    {
      std::lock_guard<std::mutex> lock(mu_);
      auto current = maps_.find(id);
      const bool unchanged =
          current != maps_.end() && current->second->file_identity() == *entry.identity;
      auto failed = failed_.find(id);
      if (unchanged || (failed != failed_.end() && failed->second == *entry.identity)) {
        watch.seen = *entry.identity;  // served, or still bad: nothing to do
        continue;
      }
    }
    if (!Settled(watch, *entry.identity, startup, now)) continue;
    Take(id, entry.path, *entry.identity, startup, watch, &first_error);
  }
  ExpireMissing(*files, now);
  // Forget what is neither served nor on disk.
  for (auto it = watch_.begin(); it != watch_.end();) {
    const bool keep = files->contains(it->first) || it->second.gone_since.has_value();
    it = keep ? std::next(it) : watch_.erase(it);
  }
  return first_error;
}

absl::StatusOr<std::shared_ptr<const ServedMap>> MapRegistry::Find(const std::string& id) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = maps_.find(id);
  if (it == maps_.end()) return absl::NotFoundError(absl::StrCat("no map '", id, "' is served"));
  return it->second;
}

std::vector<std::shared_ptr<const ServedMap>> MapRegistry::List() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::shared_ptr<const ServedMap>> out;
  out.reserve(maps_.size());
  for (const auto& [id, map] : maps_) out.push_back(map);
  return out;
}

absl::Status MapRegistry::ReloadNow() { return Scan(/*startup=*/false); }

void MapRegistry::StartWatching() {
  std::lock_guard<std::mutex> lock(watch_mu_);
  if (watcher_.joinable() || options_.reload_poll_interval <= absl::ZeroDuration()) return;
  stop_watching_ = false;
  watcher_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(watch_mu_);
    const auto period = absl::ToChronoNanoseconds(options_.reload_poll_interval);
    while (!watch_cv_.wait_for(lock, period, [this] { return stop_watching_; })) {
      lock.unlock();
      (void)Scan(/*startup=*/false);  // failures are logged and counted
      lock.lock();
    }
  });
}

void MapRegistry::StopWatching() {
  std::thread watcher;
  {
    std::lock_guard<std::mutex> lock(watch_mu_);
    stop_watching_ = true;
    watcher = std::move(watcher_);
  }
  watch_cv_.notify_all();
  if (watcher.joinable()) watcher.join();
}

uint64_t MapRegistry::reloads() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reloads_;
}

uint64_t MapRegistry::reload_failures() const {
  std::lock_guard<std::mutex> lock(mu_);
  return reload_failures_;
}

uint64_t MapRegistry::removals() const {
  std::lock_guard<std::mutex> lock(mu_);
  return removals_;
}

uint64_t MapRegistry::files_missing() const {
  std::lock_guard<std::mutex> lock(mu_);
  return files_missing_;
}

}  // namespace waymesh::server
