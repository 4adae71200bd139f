// BakeNavMesh: checks the settings, turns them into Recast's voxel units and bakes every tile
// that holds walkable geometry.

#include <Recast.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "bake_seams.h"
#include "bake_surface_heights.h"
#include "bake_tile_grid.h"
#include "recast_tile_baker.h"
#include "waymesh/bake/bake_tolerances.h"
#include "waymesh/bake/baker.h"
#include "waymesh/io/number_text.h"
#include "waymesh/mesh/tolerances.h"

namespace waymesh {
namespace {

// Recast's usual polygon size; the repair pipeline merges the detail triangles again anyway.
constexpr int kRecastVertsPerPoly = 6;
// Regions smaller than this (voxels) merge into a neighbour when they can (Recast's 20 x 20).
constexpr int kMergeRegionVoxels = 400;
// Recast limits: compact spans store heights and erosion distances in 8 bits.
constexpr int kMaxVoxelCount = 255;
constexpr int kMaxRadiusVoxels = 127;
// Recast's warnings kept in the report; the rest are counted.
constexpr size_t kMaxWarnings = 100;
// A minimum region area beyond this (m²) is certainly a typo.
constexpr float kMaxMinRegionArea = 1e6f;

absl::Status Invalid(const std::string& message) { return absl::InvalidArgumentError(message); }

bool InRange(float v, float lo, float hi) { return std::isfinite(v) && v >= lo && v <= hi; }

absl::Status CheckRanges(const BakeSettings& s) {
  const AgentSettings& a = s.agent;
  const float big = tol::kMaxCoordinate;
  if (!InRange(a.voxel_size, kMinBakeVoxelSize, kMaxBakeVoxelSize)) {
    return Invalid(absl::StrCat("voxel size ", NumberText(a.voxel_size), " m is out of range [",
                                NumberText(kMinBakeVoxelSize), ", ", NumberText(kMaxBakeVoxelSize),
                                "]"));
  }
  if (s.cell_height != 0 && !InRange(s.cell_height, kMinBakeVoxelSize / 2, kMaxBakeVoxelSize)) {
    return Invalid(absl::StrCat("cell height ", NumberText(s.cell_height), " m is out of range [",
                                NumberText(kMinBakeVoxelSize / 2), ", ",
                                NumberText(kMaxBakeVoxelSize), "] (0 = voxel size / 2)"));
  }
  if (!InRange(a.radius, 0, big))
    return Invalid(absl::StrFormat("agent radius %g m must be >= 0", a.radius));
  if (!InRange(a.height, 0, big) || a.height <= 0) {
    return Invalid(absl::StrFormat("agent height %g m must be positive", a.height));
  }
  if (!InRange(a.max_slope_deg, 0, kMaxBakeSlope)) {
    return Invalid(absl::StrCat("max slope ", NumberText(a.max_slope_deg),
                                " degrees is out of range [0, ", NumberText(kMaxBakeSlope), "]"));
  }
  if (!InRange(a.step_height, 0, big)) {
    return Invalid(absl::StrFormat("step height %g m must be >= 0", a.step_height));
  }
  if (a.step_height >= a.height) {
    return Invalid(absl::StrCat("step height ", NumberText(a.step_height),
                                " m must be below the agent height ", NumberText(a.height), " m"));
  }
  if (!InRange(s.min_region_area, 0, kMaxMinRegionArea)) {
    return Invalid(absl::StrCat("min region area ", NumberText(s.min_region_area),
                                " m² is out of range [0, ", NumberText(kMaxMinRegionArea), "]"));
  }
  if (s.tile_size < kMinBakeTileSize || s.tile_size > kMaxBakeTileSize) {
    return Invalid(absl::StrFormat("tile size %d voxels is out of range [%d, %d]", s.tile_size,
                                   kMinBakeTileSize, kMaxBakeTileSize));
  }
  return absl::OkStatus();
}

// Recast's voxel parameters; bmin/bmax are left for each tile.
rcConfig MakeConfig(const BakeSettings& s) {
  rcConfig c{};
  c.cs = s.agent.voxel_size;
  c.ch = EffectiveCellHeight(s);
  c.walkableSlopeAngle = s.agent.max_slope_deg;
  c.walkableHeight = static_cast<int>(std::ceil(s.agent.height / c.ch));
  c.walkableClimb = static_cast<int>(std::floor(s.agent.step_height / c.ch));
  c.walkableRadius = static_cast<int>(std::ceil(s.agent.radius / c.cs));
  c.maxEdgeLen = static_cast<int>(tol::kBakeMaxEdgeLength / c.cs);
  c.maxSimplificationError = tol::kBakeContourMaxError;
  c.minRegionArea = static_cast<int>(std::ceil(s.min_region_area / (c.cs * c.cs)));
  c.mergeRegionArea = kMergeRegionVoxels;
  c.maxVertsPerPoly = kRecastVertsPerPoly;
  c.tileSize = s.tile_size;
  c.borderSize = c.walkableRadius + 3;  // erosion and region growth see past the tile edge
  c.width = c.tileSize + 2 * c.borderSize;
  c.height = c.width;
  c.detailSampleDist = c.cs * tol::kBakeDetailSampleVoxels;
  c.detailSampleMaxError = c.ch * tol::kBakeDetailMaxErrorCells;
  return c;
}

absl::Status CheckVoxelCounts(const BakeSettings& s) {
  const rcConfig c = MakeConfig(s);
  if (c.walkableHeight < 3 || c.walkableHeight > kMaxVoxelCount) {
    return Invalid(absl::StrFormat(
        "agent height %g m is %d voxels of %g m (cell height); Recast needs 3 to %d",
        s.agent.height, c.walkableHeight, c.ch, kMaxVoxelCount));
  }
  if (c.walkableRadius > kMaxRadiusVoxels) {
    return Invalid(absl::StrFormat("agent radius %g m is %d voxels of %g m; Recast allows %d",
                                   s.agent.radius, c.walkableRadius, c.cs, kMaxRadiusVoxels));
  }
  return absl::OkStatus();
}

// Unity's precedence for overlapping volumes: the higher area id wins, Not Walkable beats all.
std::vector<AreaVolume> InPaintOrder(const std::vector<AreaVolume>& volumes) {
  std::vector<AreaVolume> order = volumes;
  auto rank = [](const AreaVolume& v) { return v.area == kNotWalkableArea ? kMaxAreas : v.area; };
  std::stable_sort(order.begin(), order.end(),
                   [&](const AreaVolume& a, const AreaVolume& b) { return rank(a) < rank(b); });
  return order;
}

bool HasWalkable(const bake::BakeGeometry& g, std::span<const uint32_t> tris) {
  return std::any_of(tris.begin(), tris.end(),
                     [&](uint32_t t) { return g.walkable[t] != RC_NULL_AREA; });
}

// The output mesh's metadata: the bake settings, the file's areas and links.
SourceMesh EmptyBakedMesh(const SourceMesh& geometry, const BakeSettings& s,
                          const BakeVolumes& extras) {
  SourceMesh out;
  out.origin = geometry.origin;
  out.scene_name = geometry.scene_name;
  out.exporter_version = "waymesh bake (Recast)";
  out.agent = s.agent;
  out.areas = extras.areas;
  out.links = extras.links;
  return out;
}

// Walls and ceilings are obstacles only; a file with no floor at all is an error.
absl::Status CountWalkable(const bake::BakeGeometry& g, const std::string& origin,
                           const BakeSettings& settings, BakeReport* report) {
  report->input_triangles = g.triangle_count();
  report->walkable_triangles =
      std::count_if(g.walkable.begin(), g.walkable.end(), [](unsigned char a) { return a != 0; });
  if (report->walkable_triangles > 0) return absl::OkStatus();
  return Invalid(absl::StrFormat(
      "%s: none of its %d triangles is walkable (no slope of at most %g degrees facing up; "
      "floors must be wound counter-clockwise seen from above, as OBJ front faces)",
      origin, g.triangle_count(), settings.agent.max_slope_deg));
}

void KeepWarnings(const std::vector<std::string>& warnings, BakeReport* report) {
  report->warnings.assign(warnings.begin(),
                          warnings.begin() + std::min(warnings.size(), kMaxWarnings));
  if (warnings.size() > kMaxWarnings) {
    report->warnings.push_back(
        absl::StrCat("... and ", warnings.size() - kMaxWarnings, " more warnings"));
  }
}

// Bakes every tile that holds walkable geometry, in row order, into `out`.
absl::Status BakeTiles(const bake::BakeGeometry& g, const bake::BakeTileGrid& grid,
                       const rcConfig& config, const BakeVolumes& extras, SourceMesh* out,
                       BakeReport* report, const ProgressFn& progress) {
  std::vector<uint64_t> work;
  for (uint64_t t = 0; t < grid.tile_count(); ++t) {
    if (HasWalkable(g, grid.Triangles(t))) work.push_back(t);
  }
  const std::vector<AreaVolume> volumes = InPaintOrder(extras.volumes);
  report->volumes = volumes.size();
  bake::RecastTileBaker baker(config, g, volumes);
  for (size_t i = 0; i < work.size(); ++i) {
    const uint32_t x = static_cast<uint32_t>(work[i] % grid.width);
    const uint32_t z = static_cast<uint32_t>(work[i] / grid.width);
    absl::StatusOr<bake::TileOutput> tile = baker.Bake(grid, x, z, out);
    if (!tile.ok()) return tile.status();
    ++report->tiles_baked;
    report->tiles_with_surface += tile->polygons > 0;
    report->recast_polygons += tile->polygons;
    report->detail_triangles += tile->triangles;
    if (progress) {
      progress(absl::StrFormat("bake tile %d/%d (%d, %d): %d polygons", i + 1, work.size(), x, z,
                               tile->polygons),
               double(i + 1) / work.size());
    }
  }
  KeepWarnings(baker.warnings(), report);
  return absl::OkStatus();
}

// Puts the detail vertices back on the geometry, then makes the seams' two sides agree.
void FitToGeometry(const bake::BakeGeometry& g, const bake::BakeTileGrid& grid,
                   const BakeSettings& settings, const rcConfig& config, SourceMesh* out,
                   BakeReport* report) {
  // A voxel top lies up to two voxel widths of slope (a corner takes the highest of four
  // columns) and a few layers above the geometry.
  const float slope = settings.agent.max_slope_deg * std::numbers::pi_v<float> / 180.0f;
  const float rise = 2 * config.cs * std::tan(slope) + tol::kBakeSeamHeightCells * config.ch;
  report->snapped_vertices = bake::SnapHeightsToGeometry(g, grid, rise, config.ch, &out->vertices);
  const float plan = BakeRepairOptions(settings).weld_tolerance;
  report->seam_vertices =
      bake::StitchSeams(grid, plan, tol::kBakeSeamHeightCells * config.ch, &out->vertices);
}

}  // namespace

float EffectiveCellHeight(const BakeSettings& settings) {
  return settings.cell_height > 0 ? settings.cell_height : settings.agent.voxel_size / 2;
}

absl::Status ValidateBakeSettings(const BakeSettings& settings) {
  if (absl::Status s = CheckRanges(settings); !s.ok()) return s;
  return CheckVoxelCounts(settings);
}

RepairOptions BakeRepairOptions(const BakeSettings& settings) {
  RepairOptions options;
  const float seam =
      std::min(tol::kDefaultWeld, tol::kBakeSeamWeldVoxels * settings.agent.voxel_size);
  options.weld_tolerance = seam;
  // Seam T-junctions: one tile's detail vertex on the other's edge, at a slightly different
  // height (see the tolerances).
  const AgentSettings& a = settings.agent;
  options.t_junction_tolerance = std::min(tol::kBakeSeamHeightCells * EffectiveCellHeight(settings),
                                          std::max(tol::kBakeSeamTJunctionVoxels * a.voxel_size,
                                                   tol::kBakeSeamTJunctionRadius * a.radius));
  options.tile_size = settings.tile_size * settings.agent.voxel_size;
  return options;
}

absl::StatusOr<SourceMesh> BakeNavMesh(const SourceMesh& geometry, const BakeSettings& settings,
                                       const BakeVolumes& extras, BakeReport* report,
                                       const ProgressFn& progress) {
  if (absl::Status s = ValidateBakeSettings(settings); !s.ok()) return s;
  if (geometry.vertices.size() > size_t(INT32_MAX / 3)) {
    return Invalid(absl::StrCat(geometry.origin, ": too many vertices for Recast (",
                                geometry.vertices.size(), ")"));
  }
  *report = BakeReport{};
  const bake::BakeGeometry g = bake::TriangulateForBake(geometry, settings.agent.max_slope_deg);
  if (absl::Status s = CountWalkable(g, geometry.origin, settings, report); !s.ok()) return s;
  const rcConfig config = MakeConfig(settings);
  absl::StatusOr<bake::BakeTileGrid> grid = bake::BuildBakeTileGrid(
      g, config.tileSize * config.cs, config.borderSize * config.cs, kMaxBakeTiles);
  if (!grid.ok()) {
    return Invalid(absl::StrCat(geometry.origin, ": ", grid.status().message()));
  }
  report->grid_width = grid->width;
  report->grid_height = grid->height;
  SourceMesh out = EmptyBakedMesh(geometry, settings, extras);
  absl::Status baked = BakeTiles(g, *grid, config, extras, &out, report, progress);
  if (!baked.ok()) return baked;
  if (out.polygon_count() == 0) {
    return Invalid(absl::StrFormat(
        "%s: the bake found no walkable surface for this agent (radius %g m, height %g m, "
        "step %g m, min region %g m²)",
        geometry.origin, settings.agent.radius, settings.agent.height, settings.agent.step_height,
        settings.min_region_area));
  }
  FitToGeometry(g, *grid, settings, config, &out, report);
  return out;
}

}  // namespace waymesh
