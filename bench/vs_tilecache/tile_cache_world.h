#pragma once
// Detour's side of bench/vs_tilecache: an OBJ voxelised by Recast into compressed heightfield
// layers per tile, held by a dtTileCache that rebuilds the dtNavMesh tiles an obstacle touches.
// Written from the public headers of Debian's librecast-dev (DetourTileCache.h, Recast.h).

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/bake/baker.h"
#include "waymesh/core/vec3.h"
#include "waymesh/mesh/source_mesh.h"

class dtTileCache;
class dtNavMesh;
typedef unsigned int dtObstacleRef;

namespace waymesh::bench {

// The heap objects a dtTileCache needs alive as long as it is (allocator, compressor, mesh
// process); defined in the .cc.
struct TileCacheSupport;

// What one update (add or remove of obstacles, then update() until up to date) did.
struct TileCacheUpdate {
  double ms = 0;               // wall time of the requests and all update() calls
  int update_calls = 0;        // dtTileCache::update calls until upToDate
  int tiles_rebuilt = 0;       // compressed tiles the obstacles touched (rebuilt once each)
  int requests_refused = 0;    // addObstacle / removeObstacle calls that failed
  uint32_t first_refusal = 0;  // dtStatus of the first refused request (0: none)
  bool settled = true;         // false: update() failed or never reported up to date
};

class TileCacheWorld {
 public:
  // Voxelises `geometry` tile by tile with the bake settings Waymesh's baker uses (voxel size,
  // cell height, agent, tile size) and builds every navmesh tile. `max_obstacles` sizes the
  // obstacle pool.
  static absl::StatusOr<std::unique_ptr<TileCacheWorld>> Build(const SourceMesh& geometry,
                                                               const BakeSettings& settings,
                                                               int max_obstacles);
  ~TileCacheWorld();
  // InvalidArgument when dtTileCache cannot take tiles of these settings (a compressed layer is
  // at most 255 voxels wide, border included).
  static absl::Status CheckSettings(const BakeSettings& settings);

  // Adds a cylinder standing on `foot` per entry (Detour's cylinder starts at pos.y) and runs
  // update() until the navmesh reflects all of them; the refs of accepted ones are appended.
  TileCacheUpdate Add(const std::vector<Vec3>& feet, float radius, float height,
                      std::vector<dtObstacleRef>* refs);
  // Removes `refs` and runs update() until up to date.
  TileCacheUpdate Remove(const std::vector<dtObstacleRef>& refs);

  int layer_count() const { return layer_count_; }
  int tile_columns() const { return tiles_x_ * tiles_z_; }
  int navmesh_polygons() const;
  // Plan-view area of the navmesh polygons (m²): what the obstacles cut shows here.
  double navmesh_area() const;

 private:
  TileCacheWorld() = default;
  // Runs update() until upToDate; false when update() fails.
  bool Settle(TileCacheUpdate* result);

  std::unique_ptr<TileCacheSupport> support_;
  dtTileCache* cache_ = nullptr;
  dtNavMesh* navmesh_ = nullptr;
  int tiles_x_ = 0;
  int tiles_z_ = 0;
  int layer_count_ = 0;
};

}  // namespace waymesh::bench
