#include "waymesh/server/map_registry.h"

#include <dirent.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <set>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "spdlog/spdlog.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/server/request_validation.h"

namespace waymesh::server {
namespace {

// The polygon generation of a map's version (1, 2, ...; wraps as generations do).
uint32_t GenerationOfVersion(uint64_t version) {
  return uint32_t((version - 1) % PolyRef::kMaxGeneration) + 1;
}

// The ids and paths of the map files in `dir`, sorted by id.
absl::StatusOr<std::map<std::string, std::string>> ListMapFiles(const std::string& dir) {
  DIR* d = ::opendir(dir.c_str());
  if (d == nullptr) {
    return absl::NotFoundError(
        absl::StrCat("--maps-dir ", dir, ": cannot open: ", std::strerror(errno)));
  }
  std::map<std::string, std::string> files;
  while (const dirent* e = ::readdir(d)) {
    const std::string name = e->d_name;
    if (!absl::EndsWith(name, kMapFileSuffix)) continue;
    const std::string id = name.substr(0, name.size() - std::strlen(kMapFileSuffix));
    const std::string path = absl::StrCat(dir, "/", name);
    struct stat st;
    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) continue;
    if (absl::Status s = ValidateMapId(id, "map id"); !s.ok()) {
      spdlog::warn("{}: not served: {}", path, std::string(s.message()));
      continue;
    }
    files.emplace(id, path);
  }
  ::closedir(d);
  return files;
}

}  // namespace

ServedMap::ServedMap(std::string id, uint64_t version, std::shared_ptr<const NavMap> map,
                     std::shared_ptr<const CachedTileSource> source, absl::Time loaded)
    : id_(std::move(id)),
      version_(version),
      map_(std::move(map)),
      source_(std::move(source)),
      loaded_(loaded) {}

MapRegistry::MapRegistry(const MapRegistryOptions& options)
    : options_(options), cache_(std::make_shared<TileCache>(options.tile_cache_bytes)) {}

MapRegistry::~MapRegistry() { StopWatching(); }

absl::StatusOr<std::unique_ptr<MapRegistry>> MapRegistry::Open(const MapRegistryOptions& options) {
  std::unique_ptr<MapRegistry> registry(new MapRegistry(options));
  absl::Status s = registry->Scan(/*startup=*/true);
  // A bad map is not served (and was logged); only an unreadable directory stops the server.
  if (!s.ok() && s.code() == absl::StatusCode::kNotFound) return s;
  if (registry->List().empty()) spdlog::warn("no maps in {}", options.maps_dir);
  return registry;
}

absl::StatusOr<std::shared_ptr<const ServedMap>> MapRegistry::Load(const std::string& id,
                                                                   const std::string& path,
                                                                   uint64_t version) const {
  absl::StatusOr<std::unique_ptr<MapTileFile>> file = MapTileFile::Open(path);
  if (!file.ok()) return file.status();
  // Every tile is validated now, so a served map has no bad tile to find later. The map is
  // resident for this step only: what the paged map keeps is derived from it, then it goes.
  absl::StatusOr<std::shared_ptr<const NavMap>> resident = (*file)->ReadResident();
  if (!resident.ok()) return resident.status();
  // Landmarks make A* both faster and closer to the shortest path, and dead ends let it skip
  // polygons (search_tables.h: 34 + 8 B per polygon, 68 + 8 on maps with areas cheaper than
  // walking). A paged map cannot build them (every tile at once), so they are built here from
  // the resident map and kept.
  auto tables = std::make_shared<const SearchTables>(SearchTables::Build(**resident));
  MapDigest digest = (*resident)->digest();
  resident->reset();
  MapInfo info = (*file)->directory().info;
  auto source = std::make_shared<const CachedTileSource>(*std::move(file), cache_);
  // Each version's polygons carry their own generation, so references handed out before a
  // reload are refused after it (poly_ref.h).
  const NavMap paged(std::move(info), std::move(digest), source, GenerationOfVersion(version));
  auto map = std::make_shared<const NavMap>(paged, std::move(tables));
  return std::make_shared<const ServedMap>(id, version, std::move(map), std::move(source),
                                           absl::Now());
}

absl::Status MapRegistry::Scan(bool startup) {
  std::lock_guard<std::mutex> scan_lock(scan_mu_);
  absl::StatusOr<std::map<std::string, std::string>> files = ListMapFiles(options_.maps_dir);
  if (!files.ok()) {
    if (!startup) spdlog::error("hot reload: {}", std::string(files.status().message()));
    return files.status();
  }
  absl::Status first_error;
  for (const auto& [id, path] : *files) {
    absl::StatusOr<FileIdentity> identity = StatFileIdentity(path);
    if (!identity.ok()) continue;  // removed between listing and now
    std::shared_ptr<const ServedMap> current;
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (auto it = maps_.find(id); it != maps_.end()) current = it->second;
      auto failed = failed_.find(id);
      if (failed != failed_.end() && failed->second == *identity) continue;  // still bad
    }
    if (current != nullptr && current->file_identity() == *identity) continue;
    const uint64_t version = current == nullptr ? 1 : current->version() + 1;
    absl::StatusOr<std::shared_ptr<const ServedMap>> loaded = Load(id, path, version);
    std::lock_guard<std::mutex> lock(mu_);
    if (!loaded.ok()) {
      ++reload_failures_;
      failed_[id] = *identity;
      spdlog::error("map '{}' not {}: {}", id,
                    current ? "reloaded (the old version serves on)" : "loaded",
                    std::string(loaded.status().message()));
      if (first_error.ok()) first_error = loaded.status();
      continue;
    }
    failed_.erase(id);
    maps_[id] = *loaded;
    const NavMap& map = *(*loaded)->map();
    spdlog::info("map '{}' {} (version {}): {} polygons in {} tiles, {} bytes", id,
                 current ? "reloaded" : "loaded", version, map.info().polygon_count,
                 map.tile_count(), (*loaded)->file_bytes());
    if (!startup) ++reloads_;
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (auto it = maps_.begin(); it != maps_.end();) {
    if (files->contains(it->first)) {
      ++it;
      continue;
    }
    spdlog::info("map '{}' removed from {}: no longer served", it->first, options_.maps_dir);
    failed_.erase(it->first);
    it = maps_.erase(it);
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

}  // namespace waymesh::server
