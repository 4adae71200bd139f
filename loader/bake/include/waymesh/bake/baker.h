#pragma once
// `waymesh bake`: a navmesh from raw level geometry with Recast (voxelize, filter by agent,
// regions, contours, polygons, detail meshes), tile by tile so the world size is not bounded
// by Recast's per-tile limits. The detail triangles become a SourceMesh, so the baked surface
// goes through the same repair pipeline and `.wmesh` compiler as an imported export.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "waymesh/bake/bake_volumes.h"
#include "waymesh/build/map_build.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/import/importers.h"
#include "waymesh/mesh/source_mesh.h"
#include "waymesh/repair/repair.h"

namespace waymesh {

// Accepted ranges of the bake parameters (Unity's NavMesh bake settings UI uses the same).
inline constexpr float kMinBakeVoxelSize = 0.01f;  // metres
inline constexpr float kMaxBakeVoxelSize = 10.0f;  // metres
inline constexpr float kMaxBakeSlope = 89.0f;      // degrees
inline constexpr int kMinBakeTileSize = 16;        // voxels
inline constexpr int kMaxBakeTileSize = 1024;      // voxels
// A world needing more tiles than this is refused (the compiled map's tile index has 22 bits).
inline constexpr uint64_t kMaxBakeTiles = uint64_t{1} << 22;

// Unity's NavMeshBuildSettings, in Unity's units.
struct BakeSettings {
  // Agent radius, height, max slope, step height and voxel size (Recast's cell size, metres).
  AgentSettings agent;
  float cell_height = 0;         // voxel height (m); 0 = voxel_size / 2
  float min_region_area = 2.0f;  // m²: isolated walkable patches smaller than this are dropped
  int tile_size = 256;           // voxels along a tile edge
};

// What the bake did, for the CLI report.
struct BakeReport {
  uint64_t input_triangles = 0;     // geometry after fan-triangulating its polygons
  uint64_t walkable_triangles = 0;  // no steeper than the max slope
  uint32_t grid_width = 0;          // tiles along X
  uint32_t grid_height = 0;         // tiles along Z
  uint64_t tiles_baked = 0;         // tiles that held geometry
  uint64_t tiles_with_surface = 0;  // tiles that produced walkable polygons
  uint64_t recast_polygons = 0;
  uint64_t detail_triangles = 0;  // triangles handed to the repair pipeline
  uint64_t snapped_vertices = 0;  // vertices moved down (or up) onto the level geometry
  uint64_t seam_vertices = 0;     // vertices moved to match the other side of a tile seam
  uint64_t volumes = 0;
  std::vector<std::string> warnings;  // Recast's warnings, with the tile they came from
};

// Checks every parameter's range and the relations Recast needs (agent height at least three
// voxels, step below the agent height, ...). InvalidArgument naming the parameter otherwise.
absl::Status ValidateBakeSettings(const BakeSettings& settings);

// The voxel height a bake with `settings` uses (cell_height, or voxel_size / 2 when 0).
float EffectiveCellHeight(const BakeSettings& settings);

// Bakes the walkable surface of `geometry` (its polygons, fan-triangulated; any winding) for
// the agent of `settings`, applying the volumes of `extras`. Returns the surface as triangles
// in world coordinates with the agent, areas and off-mesh links set: input for RepairMeshes.
absl::StatusOr<SourceMesh> BakeNavMesh(const SourceMesh& geometry, const BakeSettings& settings,
                                       const BakeVolumes& extras, BakeReport* report,
                                       const ProgressFn& progress = nullptr);

// Repair options for a baked mesh: seams between tiles welded within a fraction of a voxel,
// map tiles as large as bake tiles.
RepairOptions BakeRepairOptions(const BakeSettings& settings);

struct BakeResult {
  BuildResult build;  // compiled map, repair report, map info
  BakeReport bake;
};

// What BakeMap does around the bake itself: how it reads the geometry, what the file stores.
struct BakeMapOptions {
  ImportOptions import;
  StoredIndexOptions stored;  // the exact path indexes the file stores (as BuildOptions's)
};

// The whole `waymesh bake`: import the OBJ at `geometry_path`, read the volumes file at
// `volumes_path` (none when empty), bake, repair and compile (FinishCompiledMap).
absl::StatusOr<BakeResult> BakeMap(const std::string& geometry_path,
                                   const std::string& volumes_path, const BakeSettings& settings,
                                   const BakeMapOptions& options = {},
                                   const ProgressFn& progress = nullptr);

}  // namespace waymesh
