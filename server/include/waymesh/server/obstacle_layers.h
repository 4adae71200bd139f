#pragma once
// The obstacle layers a replica holds (docs/obstacles.md): per served map, named layers whose
// versions the caller numbers. The caller owns the truth and this is a cache of it: a replica
// that lacks the version a call names says so (FAILED_PRECONDITION, reasons below) and the
// caller resends the whole layer. Nothing here is shared between replicas or kept on disk, so
// a restart loses only what the caller replays.
//
// Each layer version is an immutable CarvedLayer (core/obstacles/carved_layer.h) whose map is
// served as a ServedMap of its own; queries hold it for as long as they run, so a change never
// shows half-applied and an old version is freed when its last query ends. The newest
// `versions_kept` versions of a layer stay addressable, so queries naming the version before a
// change still run while the change spreads to the callers.
//
// Carving needs every tile of the map resident: the first layer of a map version reads the map
// in full from its private copy (CarveBase); layers share it. That copy and each version's
// carved tiles count against --tile-cache-bytes (TileCache::Charge) while they live. A layer
// carved on an older map version is re-carved on the newest one the first time it is used
// after a reload.
//
// Thread-safe. Changes of one layer are applied one at a time; queries never wait for them.

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/core/obstacles/carve_map.h"
#include "waymesh/core/obstacles/carved_layer.h"
#include "waymesh/core/obstacles/obstacle.h"
#include "waymesh/server/map_registry.h"

namespace waymesh::server {

// ErrorInfo reasons of the obstacle API (docs/api.md).
namespace reason {
// A query named a layer version this replica does not hold (metadata held_version).
inline constexpr absl::string_view kObstacleLayerVersionUnknown = "OBSTACLE_LAYER_VERSION_UNKNOWN";
// An update's base_version is not the version this replica holds (metadata held_version).
inline constexpr absl::string_view kObstacleLayerVersionMismatch =
    "OBSTACLE_LAYER_VERSION_MISMATCH";
// A change would pass a limit (metadata limit: the flag).
inline constexpr absl::string_view kObstacleLimitExceeded = "OBSTACLE_LIMIT_EXCEEDED";
}  // namespace reason

struct ObstacleLayerLimits {
  uint32_t max_obstacles_per_layer = 4096;          // --max-obstacles-per-layer
  uint32_t max_layers_per_map = 64;                 // --max-obstacle-layers-per-map
  uint32_t versions_kept = 8;                       // --obstacle-versions-kept (>= 1)
  uint32_t max_prism_vertices = kMaxPrismVertices;  // --max-prism-vertices (<= kMaxPrismVertices)
};

// What one change did (ObstacleLayerChange on the wire).
struct LayerChangeResult {
  uint64_t version = 0;      // the layer version held now
  uint64_t map_version = 0;  // the map version it is carved on
  uint32_t obstacles = 0;
  uint32_t tiles_carved = 0;  // tiles whose polygons this change replaced
  bool already_held = false;  // the version was held already: nothing was done
};

// A layer as a replica holds it.
struct HeldLayer {
  uint64_t version = 0;
  uint64_t map_version = 0;
  std::vector<Obstacle> obstacles;  // in id order
};

// Per served map, for the metrics.
struct MapLayerStats {
  std::string map;            // served map id ("town", "town@ogre")
  uint32_t layers = 0;        // layers held
  uint64_t obstacles = 0;     // in the newest version of each
  uint64_t carved_tiles = 0;  // tiles of newest versions that differ from the map's own
};

class ObstacleLayers {
 public:
  explicit ObstacleLayers(ObstacleLayerLimits limits);
  ~ObstacleLayers();
  ObstacleLayers(const ObstacleLayers&) = delete;
  ObstacleLayers& operator=(const ObstacleLayers&) = delete;

  const ObstacleLayerLimits& limits() const { return limits_; }

  // Sets `layer` of `map` to exactly `obstacles` at the caller's `version` (> 0), creating it.
  // Holding that version already answers at once (already_held). Errors: InvalidArgument for a
  // bad obstacle or an id given twice, RESOURCE_EXHAUSTED past a limit.
  absl::StatusOr<LayerChangeResult> Put(std::shared_ptr<const ServedMap> map,
                                        const std::string& layer, uint64_t version,
                                        std::vector<Obstacle> obstacles);
  // Moves `layer` from `base_version` to `version` (> base_version): `upserts` added or replacing
  // the obstacle of their id, `removals` taken out. FAILED_PRECONDITION
  // (kObstacleLayerVersionMismatch) when the newest version held is not `base_version` (and not
  // `version` already, which answers already_held); NotFound for removing an unknown id.
  absl::StatusOr<LayerChangeResult> Update(std::shared_ptr<const ServedMap> map,
                                           const std::string& layer, uint64_t base_version,
                                           uint64_t version, std::vector<Obstacle> upserts,
                                           std::vector<std::string> removals);
  // Forgets `layer` of map `map_id`; false when it was not held.
  bool Delete(const std::string& map_id, const std::string& layer);
  // The names of the layers of map `map_id` that hold a version, sorted.
  std::vector<std::string> LayerNames(const std::string& map_id) const;
  // The newest version of `layer` held, if any.
  std::optional<HeldLayer> Get(const std::string& map_id, const std::string& layer) const;

  // The map a query naming `version` of `layer` on `map` runs on (0 = the newest held).
  // FAILED_PRECONDITION (kObstacleLayerVersionUnknown) when it is not held.
  absl::StatusOr<std::shared_ptr<const ServedMap>> Resolve(std::shared_ptr<const ServedMap> map,
                                                           const std::string& layer,
                                                           uint64_t version);

  std::vector<MapLayerStats> Stats() const;
  // Calls answered with a version reason (the caller had to resend a layer).
  uint64_t resyncs_requested() const;

 private:
  struct Version;
  struct Layer;
  struct MapLayers;

  // The layer, or null when not held.
  std::shared_ptr<Layer> Lookup(const std::string& map_id, const std::string& layer) const;
  // The layer, created when missing (RESOURCE_EXHAUSTED past the layers-per-map limit).
  absl::StatusOr<std::shared_ptr<Layer>> LookupOrCreate(const std::string& map_id,
                                                        const std::string& layer);
  // Drops `layer` again when a failed first Put left it without a version.
  void EraseIfEmpty(const std::string& map_id, const std::shared_ptr<Layer>& layer);
  // The carving base of `map`'s version, read on first use and shared by its layers.
  absl::StatusOr<std::shared_ptr<const CarveBase>> BaseOf(const ServedMap& map);
  // Re-carves the newest version of `layer` on `map` when it was carved on an older map
  // version (the map was reloaded). Called with the layer's change lock held.
  absl::Status FollowMapVersion(Layer& layer, const std::shared_ptr<const ServedMap>& map);
  // Makes `carved` the newest version `version` of `layer`, served on `map`.
  LayerChangeResult Publish(Layer& layer, uint64_t version,
                            std::shared_ptr<const CarvedLayer> carved,
                            const std::shared_ptr<const ServedMap>& map);
  absl::Status CheckObstacleLimit(size_t obstacles) const;
  // FAILED_PRECONDITION with `why`, counted as a resync the caller has to do.
  absl::Status ResyncNeeded(std::string message, absl::string_view why, uint64_t held);

  const ObstacleLayerLimits limits_;
  mutable std::mutex mu_;  // guards maps_ (never taken while holding a layer's lock)
  std::map<std::string, MapLayers> maps_;
  std::atomic<uint64_t> resyncs_{0};
};

}  // namespace waymesh::server
