#include "recast_tile_baker.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace waymesh::bake {
namespace {

template <typename T, void (*kFree)(T*)>
struct RecastFree {
  void operator()(T* p) const { kFree(p); }
};
using HeightfieldPtr = std::unique_ptr<rcHeightfield, RecastFree<rcHeightfield, rcFreeHeightField>>;
using CompactPtr = std::unique_ptr<rcCompactHeightfield,
                                   RecastFree<rcCompactHeightfield, rcFreeCompactHeightfield>>;
using ContoursPtr = std::unique_ptr<rcContourSet, RecastFree<rcContourSet, rcFreeContourSet>>;
using PolyMeshPtr = std::unique_ptr<rcPolyMesh, RecastFree<rcPolyMesh, rcFreePolyMesh>>;
using DetailPtr =
    std::unique_ptr<rcPolyMeshDetail, RecastFree<rcPolyMeshDetail, rcFreePolyMeshDetail>>;

}  // namespace

// Keeps Recast's error and warning messages (it reports failures only through its log).
class RecastTileBaker::Log : public rcContext {
 public:
  Log() : rcContext(true) { enableTimer(false); }
  std::vector<std::string> errors;
  std::vector<std::string> warnings;

 protected:
  void doLog(const rcLogCategory category, const char* msg, const int len) override {
    if (category == RC_LOG_ERROR) errors.emplace_back(msg, std::max(len, 0));
    if (category == RC_LOG_WARNING) warnings.emplace_back(msg, std::max(len, 0));
  }
};

unsigned char ToRecastArea(uint8_t area) {
  if (area == kWalkableArea) return RC_WALKABLE_AREA;
  if (area == kNotWalkableArea) return RC_NULL_AREA;
  return area;
}

uint8_t FromRecastArea(unsigned char recast_area) {
  return recast_area == RC_WALKABLE_AREA ? kWalkableArea : recast_area;
}

RecastTileBaker::RecastTileBaker(const rcConfig& config, const BakeGeometry& geometry,
                                 std::span<const AreaVolume> volumes)
    : base_(config), geometry_(geometry), volumes_(volumes) {
  for (const AreaVolume& v : volumes_) {
    std::vector<float>& flat = outlines_.emplace_back();
    for (const Vec3& p : v.outline) flat.insert(flat.end(), {p.x, 0.0f, p.z});
  }
}

// The tile's heightfield box: the tile plus its border in X–Z; in Y the span of its triangles,
// started on the world's voxel layering so both sides of a seam quantize heights alike.
absl::Status RecastTileBaker::TileConfig(const BakeTileGrid& grid, uint32_t x, uint32_t z,
                                         std::span<const uint32_t> tris, rcConfig* cfg) const {
  *cfg = base_;
  float lo = 1e30f, hi = -1e30f;
  for (uint32_t t : tris) {
    for (int k = 0; k < 3; ++k) {
      const float y = geometry_.verts[3 * size_t(geometry_.tris[3 * size_t(t) + k]) + 1];
      lo = std::min(lo, y);
      hi = std::max(hi, y);
    }
  }
  const float border = cfg->borderSize * cfg->cs;
  const float layers = std::floor((lo - grid.origin.y) / cfg->ch);
  cfg->bmin[0] = grid.origin.x + x * grid.tile_world - border;
  cfg->bmin[1] = grid.origin.y + layers * cfg->ch;
  cfg->bmin[2] = grid.origin.z + z * grid.tile_world - border;
  cfg->bmax[0] = grid.origin.x + (x + 1) * grid.tile_world + border;
  cfg->bmax[1] = hi + cfg->ch;
  cfg->bmax[2] = grid.origin.z + (z + 1) * grid.tile_world + border;
  const double voxels_high = (double(cfg->bmax[1]) - cfg->bmin[1]) / cfg->ch + cfg->walkableHeight;
  if (voxels_high > RC_SPAN_MAX_HEIGHT) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "tile (%d, %d): its geometry spans %.1f m in height, %.0f voxels of %g m; Recast allows "
        "%d (raise the cell height)",
        x, z, cfg->bmax[1] - cfg->bmin[1], voxels_high, cfg->ch, RC_SPAN_MAX_HEIGHT));
  }
  return absl::OkStatus();
}

void RecastTileBaker::MarkVolumes(const rcConfig& cfg, rcCompactHeightfield& chf) const {
  rcContext quiet(false);
  for (size_t i = 0; i < volumes_.size(); ++i) {
    const AreaVolume& v = volumes_[i];
    if (v.max.x < cfg.bmin[0] || v.min.x > cfg.bmax[0] || v.max.z < cfg.bmin[2] ||
        v.min.z > cfg.bmax[2]) {
      continue;
    }
    const unsigned char area = ToRecastArea(v.area);
    if (v.is_prism()) {
      rcMarkConvexPolyArea(&quiet, outlines_[i].data(), int(v.outline.size()), v.min.y, v.max.y,
                           area, chf);
    } else {
      const float bmin[3] = {v.min.x, v.min.y, v.min.z};
      const float bmax[3] = {v.max.x, v.max.y, v.max.z};
      rcMarkBoxArea(&quiet, bmin, bmax, area, chf);
    }
  }
}

absl::StatusOr<TileOutput> RecastTileBaker::Bake(const BakeTileGrid& grid, uint32_t x, uint32_t z,
                                                 SourceMesh* out) {
  const std::span<const uint32_t> tris = grid.Triangles(uint64_t{z} * grid.width + x);
  rcConfig cfg;
  if (absl::Status s = TileConfig(grid, x, z, tris, &cfg); !s.ok()) return s;
  Log log;
  auto fail = [&](const char* step) {
    std::string why = log.errors.empty() ? "failed" : log.errors.back();
    return absl::InternalError(absl::StrFormat("tile (%d, %d): Recast %s: %s", x, z, step, why));
  };
  tile_tris_.clear();
  tile_areas_.clear();
  for (uint32_t t : tris) {
    tile_tris_.insert(tile_tris_.end(), &geometry_.tris[3 * size_t(t)],
                      &geometry_.tris[3 * size_t(t) + 3]);
    tile_areas_.push_back(geometry_.walkable[t]);
  }

  HeightfieldPtr solid(rcAllocHeightfield());
  if (!solid || !rcCreateHeightfield(&log, *solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax,
                                     cfg.cs, cfg.ch)) {
    return fail("heightfield");
  }
  if (!rcRasterizeTriangles(&log, geometry_.verts.data(), int(geometry_.vertex_count()),
                            tile_tris_.data(), tile_areas_.data(), int(tile_areas_.size()), *solid,
                            cfg.walkableClimb)) {
    return fail("rasterization");
  }
  // Unity's filters: step onto low obstacles, no standing on ledges, no crawling under tables.
  rcFilterLowHangingWalkableObstacles(&log, cfg.walkableClimb, *solid);
  rcFilterLedgeSpans(&log, cfg.walkableHeight, cfg.walkableClimb, *solid);
  rcFilterWalkableLowHeightSpans(&log, cfg.walkableHeight, *solid);

  CompactPtr chf(rcAllocCompactHeightfield());
  if (!chf ||
      !rcBuildCompactHeightfield(&log, cfg.walkableHeight, cfg.walkableClimb, *solid, *chf)) {
    return fail("compact heightfield");
  }
  solid.reset();
  if (cfg.walkableRadius > 0 && !rcErodeWalkableArea(&log, cfg.walkableRadius, *chf)) {
    return fail("erosion");
  }
  MarkVolumes(cfg, *chf);
  if (!rcBuildDistanceField(&log, *chf)) return fail("distance field");
  if (!rcBuildRegions(&log, *chf, cfg.borderSize, cfg.minRegionArea, cfg.mergeRegionArea)) {
    return fail("regions");
  }
  ContoursPtr contours(rcAllocContourSet());
  if (!contours ||
      !rcBuildContours(&log, *chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *contours)) {
    return fail("contours");
  }
  TileOutput result;
  if (contours->nconts > 0) {
    PolyMeshPtr polys(rcAllocPolyMesh());
    if (!polys || !rcBuildPolyMesh(&log, *contours, cfg.maxVertsPerPoly, *polys)) {
      return fail("polygon mesh");
    }
    DetailPtr detail(rcAllocPolyMeshDetail());
    if (!detail || !rcBuildPolyMeshDetail(&log, *polys, *chf, cfg.detailSampleDist,
                                          cfg.detailSampleMaxError, *detail)) {
      return fail("detail mesh");
    }
    if (out->vertices.size() + size_t(detail->nverts) > UINT32_MAX) {
      return absl::ResourceExhaustedError(
          absl::StrFormat("tile (%d, %d): the baked surface exceeds 2^32 vertices", x, z));
    }
    // Each polygon's detail triangles, with the polygon's area, in world coordinates. Recast
    // lifts detail vertices by one cell height above the voxel tops (so debug drawing shows
    // above the geometry); taking it off puts the surface back on the level geometry.
    for (int p = 0; p < detail->nmeshes; ++p) {
      const unsigned int* m = &detail->meshes[4 * p];
      const uint32_t base = static_cast<uint32_t>(out->vertices.size());
      for (unsigned int v = 0; v < m[1]; ++v) {
        const float* xyz = &detail->verts[3 * (m[0] + v)];
        out->vertices.push_back({xyz[0], xyz[1] - cfg.ch, xyz[2]});
      }
      const uint8_t area = FromRecastArea(polys->areas[p]);
      for (unsigned int t = 0; t < m[3]; ++t) {
        const unsigned char* tri = &detail->tris[4 * (m[2] + t)];
        out->AddPolygon({base + tri[0], base + tri[1], base + tri[2]}, area);
      }
      result.triangles += m[3];
    }
    result.polygons = static_cast<uint32_t>(polys->npolys);
  }
  for (const std::string& w : log.warnings) {
    warnings_.push_back(absl::StrFormat("tile (%d, %d): %s", x, z, w));
  }
  return result;
}

}  // namespace waymesh::bake
