#include "waymesh/server/obstacle_layers.h"

#include <algorithm>
#include <deque>
#include <set>
#include <string_view>
#include <utility>

#include "absl/strings/str_cat.h"
#include "spdlog/spdlog.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/server/error_model.h"

namespace waymesh::server {

// One version of a layer as queries see it.
struct ObstacleLayers::Version {
  uint64_t version = 0;  // the caller's number
  std::shared_ptr<const CarvedLayer> carved;
  std::shared_ptr<const ServedMap> served;  // the carved map, served like a map version
  uint32_t carved_tiles = 0;                // tiles that differ from the map's own
  // Their bytes, counted against --tile-cache-bytes while this version lives.
  std::shared_ptr<const void> charge;
};

struct ObstacleLayers::Layer {
  explicit Layer(std::string n) : name(std::move(n)) {}
  const std::string name;
  std::mutex change_mu;          // one change (or re-carve) of this layer at a time
  mutable std::mutex mu;         // guards versions; held only to read or swap them
  std::deque<Version> versions;  // oldest first; empty until the first Put is carved
};

struct ObstacleLayers::MapLayers {
  std::map<std::string, std::shared_ptr<Layer>> layers;
  // Reading a map in full is slow: one reader per map, the others wait for its result.
  std::shared_ptr<std::mutex> base_mu = std::make_shared<std::mutex>();
  uint64_t base_version = 0;
  std::shared_ptr<const CarveBase> base;
  std::shared_ptr<const void> base_charge;  // the resident copy's bytes against the budget
};

namespace {

// Tiles of `map` whose generation differs from `reference`'s: the tiles a carve replaced.
std::vector<uint32_t> TilesChanged(const NavMap& map, const NavMap& reference) {
  std::vector<uint32_t> changed;
  for (uint32_t t = 0; t < map.tile_count(); ++t) {
    if (map.generation(t) != reference.generation(t)) changed.push_back(t);
  }
  return changed;
}

// What `tiles` of `served` cost in memory, roughly: their bytes in the map file.
uint64_t TileBytes(const std::vector<uint32_t>& tiles, const ServedMap& served) {
  uint64_t bytes = 0;
  for (const uint32_t t : tiles) bytes += served.tile_bytes(t);
  return bytes;
}

// A Put as a change of the layer it replaces: the obstacles that are new or differ, and the ids
// no longer there. Only those are carved again, so resending a whole layer with one obstacle
// changed costs about what an update of that one obstacle costs.
struct LayerDiff {
  std::vector<Obstacle> upserts;
  std::vector<std::string> removals;
};
absl::StatusOr<LayerDiff> Diff(const std::vector<Obstacle>& held,
                               const std::vector<Obstacle>& next) {
  std::map<std::string_view, const Obstacle*> before;
  for (const Obstacle& o : held) before.emplace(o.id, &o);
  std::set<std::string_view> seen;
  LayerDiff diff;
  for (const Obstacle& o : next) {
    if (!seen.insert(o.id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("obstacles: id \"", o.id, "\" is given twice"));
    }
    const auto it = before.find(o.id);
    if (it == before.end() || !(*it->second == o)) diff.upserts.push_back(o);
    if (it != before.end()) before.erase(it);
  }
  for (const auto& [id, unused] : before) diff.removals.emplace_back(id);
  return diff;
}

// The carved map of `carved` as queries search it: with the search tables of the served map it
// was carved from when they stay valid for it (search_tables.h), since without them long
// searches on a big map run out of nodes.
std::shared_ptr<const NavMap> Searchable(const CarvedLayer& carved, const ServedMap& map) {
  const std::shared_ptr<const SearchTables>& tables = map.map()->shared_search_tables();
  if (tables == nullptr || !CanShareSearchTables(*carved.base()->map(), carved.obstacle_areas())) {
    return carved.map();
  }
  return std::make_shared<const NavMap>(*carved.map(), tables);
}

}  // namespace

ObstacleLayers::ObstacleLayers(ObstacleLayerLimits limits) : limits_(limits) {}
ObstacleLayers::~ObstacleLayers() = default;

absl::StatusOr<LayerChangeResult> ObstacleLayers::Put(std::shared_ptr<const ServedMap> map,
                                                      const std::string& layer_name,
                                                      uint64_t version,
                                                      std::vector<Obstacle> obstacles) {
  if (absl::Status s = CheckObstacleLimit(obstacles.size()); !s.ok()) return s;
  absl::StatusOr<std::shared_ptr<Layer>> layer = LookupOrCreate(map->id(), layer_name);
  if (!layer.ok()) return layer.status();
  Layer& l = **layer;
  std::lock_guard<std::mutex> change(l.change_mu);
  std::optional<Version> newest;
  {
    std::lock_guard<std::mutex> lock(l.mu);
    if (!l.versions.empty()) newest = l.versions.back();
  }
  if (newest && newest->version == version && newest->served->version() >= map->version()) {
    return LayerChangeResult{version, newest->served->version(),
                             static_cast<uint32_t>(newest->carved->obstacle_count()), 0, true};
  }
  // From the newest version when it is on this map version (only what differs is re-cut and
  // generations keep increasing), else from the map itself.
  absl::StatusOr<std::shared_ptr<const CarvedLayer>> carved;
  if (newest && newest->served->version() == map->version()) {
    absl::StatusOr<LayerDiff> diff = Diff(newest->carved->obstacles(), obstacles);
    carved = diff.ok() ? ApplyObstacleChanges(*newest->carved, diff->upserts, diff->removals)
                       : diff.status();
  } else {
    absl::StatusOr<std::shared_ptr<const CarveBase>> base = BaseOf(*map);
    if (!base.ok()) {
      carved = base.status();
    } else {
      carved = ApplyObstacleChanges(*CarvedLayer::Empty(*base), obstacles, {});
    }
  }
  if (!carved.ok()) {
    EraseIfEmpty(map->id(), *layer);
    return carved.status();
  }
  return Publish(l, version, *std::move(carved), map);
}

absl::StatusOr<LayerChangeResult> ObstacleLayers::Update(std::shared_ptr<const ServedMap> map,
                                                         const std::string& layer_name,
                                                         uint64_t base_version, uint64_t version,
                                                         std::vector<Obstacle> upserts,
                                                         std::vector<std::string> removals) {
  std::shared_ptr<Layer> layer = Lookup(map->id(), layer_name);
  const auto mismatch = [&](uint64_t held) {
    return ResyncNeeded(absl::StrCat("base_version: layer '", layer_name, "' of map '", map->id(),
                                     "' is at version ", held, " on this replica, not ",
                                     base_version, ": put the whole layer"),
                        reason::kObstacleLayerVersionMismatch, held);
  };
  if (layer == nullptr) return mismatch(0);
  std::lock_guard<std::mutex> change(layer->change_mu);
  std::optional<Version> newest;
  {
    std::lock_guard<std::mutex> lock(layer->mu);
    if (!layer->versions.empty()) newest = layer->versions.back();
  }
  if (!newest) return mismatch(0);
  if (newest->version == version) {
    return LayerChangeResult{version, newest->served->version(),
                             static_cast<uint32_t>(newest->carved->obstacle_count()), 0, true};
  }
  if (newest->version != base_version) return mismatch(newest->version);
  if (absl::Status s = FollowMapVersion(*layer, map); !s.ok()) return s;
  {
    std::lock_guard<std::mutex> lock(layer->mu);
    newest = layer->versions.back();
  }
  absl::StatusOr<std::shared_ptr<const CarvedLayer>> carved =
      ApplyObstacleChanges(*newest->carved, upserts, removals);
  if (!carved.ok()) return carved.status();
  if (absl::Status s = CheckObstacleLimit((*carved)->obstacle_count()); !s.ok()) return s;
  return Publish(*layer, version, *std::move(carved), newest->served);
}

bool ObstacleLayers::Delete(const std::string& map_id, const std::string& layer) {
  std::lock_guard<std::mutex> lock(mu_);
  auto m = maps_.find(map_id);
  if (m == maps_.end() || m->second.layers.erase(layer) == 0) return false;
  // The last layer gone: the map's carving base (the whole map resident) goes too.
  if (m->second.layers.empty()) maps_.erase(m);
  return true;
}

std::vector<std::string> ObstacleLayers::LayerNames(const std::string& map_id) const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<std::string> names;
  auto m = maps_.find(map_id);
  if (m == maps_.end()) return names;
  for (const auto& [name, layer] : m->second.layers) {
    std::lock_guard<std::mutex> versions(layer->mu);
    if (!layer->versions.empty()) names.push_back(name);
  }
  return names;
}

std::optional<HeldLayer> ObstacleLayers::Get(const std::string& map_id,
                                             const std::string& layer_name) const {
  std::shared_ptr<Layer> layer = Lookup(map_id, layer_name);
  if (layer == nullptr) return std::nullopt;
  std::lock_guard<std::mutex> lock(layer->mu);
  if (layer->versions.empty()) return std::nullopt;
  const Version& newest = layer->versions.back();
  return HeldLayer{newest.version, newest.served->version(), newest.carved->obstacles()};
}

absl::StatusOr<std::shared_ptr<const ServedMap>> ObstacleLayers::Resolve(
    std::shared_ptr<const ServedMap> map, const std::string& layer_name, uint64_t version) {
  std::shared_ptr<Layer> layer = Lookup(map->id(), layer_name);
  // The version asked for (0: the newest) and whether it is carved on an older map version.
  const auto pick = [&]() -> std::pair<std::shared_ptr<const ServedMap>, uint64_t> {
    std::lock_guard<std::mutex> lock(layer->mu);
    if (layer->versions.empty()) return {nullptr, 0};
    for (const Version& v : layer->versions) {
      if (v.version == version || (version == 0 && &v == &layer->versions.back())) {
        return {v.served, layer->versions.back().version};
      }
    }
    return {nullptr, layer->versions.back().version};
  };
  const auto unknown = [&](uint64_t held) {
    return ResyncNeeded(absl::StrCat("obstacles: layer '", layer_name, "' version ", version,
                                     " of map '", map->id(), "' is not held by this replica",
                                     held == 0 ? "" : absl::StrCat(" (it holds ", held, ")"),
                                     ": put the layer, then retry"),
                        reason::kObstacleLayerVersionUnknown, held);
  };
  if (layer == nullptr) return unknown(0);
  auto [served, held] = pick();
  if (served == nullptr) return unknown(held);
  if (served->version() >= map->version()) return served;
  // The map was reloaded since this layer was carved: carve its newest version on the new one.
  {
    std::lock_guard<std::mutex> change(layer->change_mu);
    if (absl::Status s = FollowMapVersion(*layer, map); !s.ok()) return s;
  }
  std::tie(served, held) = pick();
  if (served == nullptr) return unknown(held);
  return served;
}

std::vector<MapLayerStats> ObstacleLayers::Stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::vector<MapLayerStats> stats;
  for (const auto& [map_id, m] : maps_) {
    MapLayerStats& s = stats.emplace_back();
    s.map = map_id;
    for (const auto& [name, layer] : m.layers) {
      std::lock_guard<std::mutex> versions(layer->mu);
      if (layer->versions.empty()) continue;
      ++s.layers;
      s.obstacles += layer->versions.back().carved->obstacle_count();
      s.carved_tiles += layer->versions.back().carved_tiles;
    }
  }
  return stats;
}

uint64_t ObstacleLayers::resyncs_requested() const {
  return resyncs_.load(std::memory_order_relaxed);
}

std::shared_ptr<ObstacleLayers::Layer> ObstacleLayers::Lookup(const std::string& map_id,
                                                              const std::string& layer) const {
  std::lock_guard<std::mutex> lock(mu_);
  auto m = maps_.find(map_id);
  if (m == maps_.end()) return nullptr;
  auto l = m->second.layers.find(layer);
  return l == m->second.layers.end() ? nullptr : l->second;
}

absl::StatusOr<std::shared_ptr<ObstacleLayers::Layer>> ObstacleLayers::LookupOrCreate(
    const std::string& map_id, const std::string& layer) {
  std::lock_guard<std::mutex> lock(mu_);
  MapLayers& m = maps_[map_id];
  auto l = m.layers.find(layer);
  if (l != m.layers.end()) return l->second;
  if (m.layers.size() >= limits_.max_layers_per_map) {
    if (m.layers.empty()) maps_.erase(map_id);
    return WithReason(absl::ResourceExhaustedError(absl::StrCat(
                          "layer: map '", map_id, "' holds ", limits_.max_layers_per_map,
                          " obstacle layers already (--max-obstacle-layers-per-map)")),
                      reason::kObstacleLimitExceeded, "limit", "max-obstacle-layers-per-map");
  }
  auto created = std::make_shared<Layer>(layer);
  m.layers.emplace(layer, created);
  return created;
}

void ObstacleLayers::EraseIfEmpty(const std::string& map_id, const std::shared_ptr<Layer>& layer) {
  {
    std::lock_guard<std::mutex> versions(layer->mu);
    if (!layer->versions.empty()) return;
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto m = maps_.find(map_id);
  if (m == maps_.end()) return;
  auto l = m->second.layers.find(layer->name);
  if (l != m->second.layers.end() && l->second == layer) m->second.layers.erase(l);
  if (m->second.layers.empty()) maps_.erase(m);
}

absl::StatusOr<std::shared_ptr<const CarveBase>> ObstacleLayers::BaseOf(const ServedMap& map) {
  std::shared_ptr<std::mutex> base_mu;
  {
    std::lock_guard<std::mutex> lock(mu_);
    MapLayers& m = maps_[map.id()];
    if (m.base != nullptr && m.base_version == map.version()) return m.base;
    base_mu = m.base_mu;
  }
  std::lock_guard<std::mutex> reading(*base_mu);
  {
    std::lock_guard<std::mutex> lock(mu_);
    MapLayers& m = maps_[map.id()];
    if (m.base != nullptr && m.base_version == map.version()) return m.base;
  }
  absl::StatusOr<std::shared_ptr<const NavMap>> resident = map.ReadResident();
  if (!resident.ok()) return resident.status();
  absl::StatusOr<std::shared_ptr<const CarveBase>> base = CarveBase::Prepare(*std::move(resident));
  if (!base.ok()) return base.status();
  spdlog::info("map '{}' version {}: read in full for obstacle carving", map.id(), map.version());
  std::shared_ptr<const void> charge = map.ChargeTileCache(map.file_bytes());
  std::lock_guard<std::mutex> lock(mu_);
  MapLayers& m = maps_[map.id()];
  if (map.version() >= m.base_version) {
    m.base_version = map.version();
    m.base = *base;
    m.base_charge = std::move(charge);
  }
  return *base;
}

absl::Status ObstacleLayers::FollowMapVersion(Layer& layer,
                                              const std::shared_ptr<const ServedMap>& map) {
  Version newest;
  {
    std::lock_guard<std::mutex> lock(layer.mu);
    if (layer.versions.empty() || layer.versions.back().served->version() >= map->version()) {
      return absl::OkStatus();
    }
    newest = layer.versions.back();
  }
  absl::StatusOr<std::shared_ptr<const CarveBase>> base = BaseOf(*map);
  if (!base.ok()) return base.status();
  absl::StatusOr<std::shared_ptr<const CarvedLayer>> carved =
      ApplyObstacleChanges(*CarvedLayer::Empty(*base), newest.carved->obstacles(), {});
  if (!carved.ok()) return carved.status();
  spdlog::info("obstacle layer '{}' version {}: re-carved on map '{}' version {}", layer.name,
               newest.version, map->id(), map->version());
  // Versions carved on the old map are not served on the new one.
  {
    std::lock_guard<std::mutex> lock(layer.mu);
    layer.versions.clear();
  }
  Publish(layer, newest.version, *std::move(carved), map);
  return absl::OkStatus();
}

LayerChangeResult ObstacleLayers::Publish(Layer& layer, uint64_t version,
                                          std::shared_ptr<const CarvedLayer> carved,
                                          const std::shared_ptr<const ServedMap>& map) {
  Version v;
  v.version = version;
  v.served = map->WithObstacles(layer.name, Searchable(*carved, *map));
  const std::vector<uint32_t> carved_tiles = TilesChanged(*carved->map(), *carved->base()->map());
  v.carved_tiles = static_cast<uint32_t>(carved_tiles.size());
  v.charge = map->ChargeTileCache(TileBytes(carved_tiles, *map));
  v.carved = std::move(carved);
  LayerChangeResult result{version, map->version(),
                           static_cast<uint32_t>(v.carved->obstacle_count()), 0, false};
  std::lock_guard<std::mutex> lock(layer.mu);
  const bool same_map =
      !layer.versions.empty() && layer.versions.back().served->version() == map->version();
  result.tiles_carved =
      same_map ? static_cast<uint32_t>(
                     TilesChanged(*v.carved->map(), *layer.versions.back().carved->map()).size())
               : v.carved_tiles;
  layer.versions.push_back(std::move(v));
  while (layer.versions.size() > std::max<uint32_t>(1, limits_.versions_kept)) {
    layer.versions.pop_front();
  }
  return result;
}

absl::Status ObstacleLayers::CheckObstacleLimit(size_t obstacles) const {
  if (obstacles <= limits_.max_obstacles_per_layer) return absl::OkStatus();
  return WithReason(absl::ResourceExhaustedError(absl::StrCat(
                        "obstacles: ", obstacles, " obstacles in one layer; at most ",
                        limits_.max_obstacles_per_layer, " (--max-obstacles-per-layer)")),
                    reason::kObstacleLimitExceeded, "limit", "max-obstacles-per-layer");
}

absl::Status ObstacleLayers::ResyncNeeded(std::string message, absl::string_view why,
                                          uint64_t held) {
  resyncs_.fetch_add(1, std::memory_order_relaxed);
  return WithReason(absl::FailedPreconditionError(std::move(message)), why, "held_version",
                    absl::StrCat(held));
}

}  // namespace waymesh::server
