#include "vs_tilecache/tile_cache_world.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshBuilder.h>
#include <DetourStatus.h>
#include <DetourTileCache.h>
#include <DetourTileCacheBuilder.h>
#include <Recast.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "absl/strings/str_format.h"
#include "common/stopwatch.h"

namespace waymesh::bench {
namespace {

// Scratch memory of one navmesh tile rebuild (dtTileCache resets it before each); a 48-voxel
// tile needs well under 1 MiB.
constexpr size_t kTileCacheScratchBytes = size_t{32} << 20;
// Douglas-Peucker error of the layer contours (voxels), Recast's usual setting.
constexpr float kMaxSimplificationError = 1.3f;
// A compressed layer stores its size in unsigned chars.
constexpr int kMaxLayerWidth = 255;
// Polygon and tile ids of a dtNavMesh share 22 bits (the rest is the salt).
constexpr int kNavMeshRefBits = 22;
// update() calls before an update counts as hung.
constexpr int kMaxUpdateCalls = 1 << 20;
constexpr unsigned short kWalkableFlag = 1;

}  // namespace

// dtTileCache's callbacks; named (not anonymous) because TileCacheSupport holds them.
namespace tile_cache_internal {

// dtTileCache's allocator: a bump allocator reset before every tile rebuild, so the rebuild
// does not pay for the heap (what a tuned dtTileCache user does).
class BumpAlloc final : public dtTileCacheAlloc {
 public:
  BumpAlloc() : buffer_(kTileCacheScratchBytes) {}
  void reset() override { top_ = 0; }
  void* alloc(const size_t size) override {
    const size_t aligned =
        (size + alignof(std::max_align_t) - 1) & ~(alignof(std::max_align_t) - 1);
    if (top_ + aligned > buffer_.size()) return nullptr;
    void* at = buffer_.data() + top_;
    top_ += aligned;
    return at;
  }
  void free(void*) override {}

 private:
  std::vector<unsigned char> buffer_;
  size_t top_ = 0;
};

// "Compression" by copying: the benchmark measures carving, not a codec.
class CopyCompressor final : public dtTileCacheCompressor {
 public:
  int maxCompressedSize(const int buffer_size) override { return buffer_size; }
  dtStatus compress(const unsigned char* buffer, const int buffer_size, unsigned char* compressed,
                    const int max_compressed_size, int* compressed_size) override {
    return Copy(buffer, buffer_size, compressed, max_compressed_size, compressed_size);
  }
  dtStatus decompress(const unsigned char* compressed, const int compressed_size,
                      unsigned char* buffer, const int max_buffer_size, int* buffer_size) override {
    return Copy(compressed, compressed_size, buffer, max_buffer_size, buffer_size);
  }

 private:
  static dtStatus Copy(const unsigned char* from, int size, unsigned char* to, int capacity,
                       int* copied) {
    if (size > capacity) return DT_FAILURE | DT_BUFFER_TOO_SMALL;
    std::memcpy(to, from, size);
    *copied = size;
    return DT_SUCCESS;
  }
};

// Every polygon the layers produce is walkable ground: area 0, walkable flag.
class WalkableFlags final : public dtTileCacheMeshProcess {
 public:
  void process(dtNavMeshCreateParams* params, unsigned char* areas,
               unsigned short* flags) override {
    for (int i = 0; i < params->polyCount; ++i) {
      if (areas[i] == DT_TILECACHE_WALKABLE_AREA) areas[i] = 0;
      flags[i] = kWalkableFlag;
    }
  }
};

}  // namespace tile_cache_internal

namespace {

// The geometry as Recast takes it: a flat vertex array and fan-triangulated polygons.
struct RecastGeometry {
  std::vector<float> verts;
  std::vector<int> tris;
  std::vector<float> tri_min_max;  // per triangle: min x, min z, max x, max z
  float bmin[3] = {0, 0, 0};
  float bmax[3] = {0, 0, 0};
};

RecastGeometry ToRecast(const SourceMesh& mesh) {
  RecastGeometry g;
  for (const Vec3& v : mesh.vertices) g.verts.insert(g.verts.end(), {v.x, v.y, v.z});
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    const uint32_t first = mesh.poly_start[p];
    for (uint32_t k = first + 1; k + 1 < mesh.poly_start[p + 1]; ++k) {
      g.tris.insert(g.tris.end(), {int(mesh.poly_verts[first]), int(mesh.poly_verts[k]),
                                   int(mesh.poly_verts[k + 1])});
    }
  }
  rcCalcBounds(g.verts.data(), int(mesh.vertices.size()), g.bmin, g.bmax);
  for (size_t t = 0; t < g.tris.size(); t += 3) {
    float lo[2] = {std::numeric_limits<float>::max(), std::numeric_limits<float>::max()};
    float hi[2] = {-lo[0], -lo[1]};
    for (int k = 0; k < 3; ++k) {
      const float* v = &g.verts[3 * g.tris[t + k]];
      lo[0] = std::min(lo[0], v[0]), lo[1] = std::min(lo[1], v[2]);
      hi[0] = std::max(hi[0], v[0]), hi[1] = std::max(hi[1], v[2]);
    }
    g.tri_min_max.insert(g.tri_min_max.end(), {lo[0], lo[1], hi[0], hi[1]});
  }
  return g;
}

// Recast's voxel units of the bake settings.
struct VoxelSettings {
  float cs = 0, ch = 0;
  int walkable_height = 0, walkable_climb = 0, walkable_radius = 0;
  int tile_size = 0, border = 0;
  float max_slope_deg = 0;
};

VoxelSettings ToVoxels(const BakeSettings& s) {
  VoxelSettings v;
  v.cs = s.agent.voxel_size;
  v.ch = EffectiveCellHeight(s);
  v.walkable_height = int(std::ceil(s.agent.height / v.ch));
  v.walkable_climb = int(std::floor(s.agent.step_height / v.ch));
  v.walkable_radius = int(std::ceil(s.agent.radius / v.cs));
  v.tile_size = s.tile_size;
  v.border = v.walkable_radius + 3;
  v.max_slope_deg = s.agent.max_slope_deg;
  return v;
}

// One tile's compressed layers (dtAlloc'd, handed to the tile cache which frees them).
struct CompressedLayer {
  unsigned char* data = nullptr;
  int size = 0;
};

absl::Status BuildTileLayers(const RecastGeometry& g, const VoxelSettings& v, int tx, int tz,
                             dtTileCacheCompressor* comp, std::vector<CompressedLayer>* out) {
  rcContext ctx(false);
  const float tile_world = v.tile_size * v.cs;
  const float pad = v.border * v.cs;
  const float bmin[3] = {g.bmin[0] + tx * tile_world - pad, g.bmin[1],
                         g.bmin[2] + tz * tile_world - pad};
  const float bmax[3] = {g.bmin[0] + (tx + 1) * tile_world + pad, g.bmax[1],
                         g.bmin[2] + (tz + 1) * tile_world + pad};
  std::vector<int> tris;
  for (size_t t = 0; t < g.tri_min_max.size() / 4; ++t) {
    const float* mm = &g.tri_min_max[4 * t];
    if (mm[2] < bmin[0] || mm[0] > bmax[0] || mm[3] < bmin[2] || mm[1] > bmax[2]) continue;
    tris.insert(tris.end(), &g.tris[3 * t], &g.tris[3 * t] + 3);
  }
  if (tris.empty()) return absl::OkStatus();
  const int nt = int(tris.size() / 3);
  const int nv = int(g.verts.size() / 3);
  std::vector<unsigned char> areas(nt, 0);
  rcMarkWalkableTriangles(&ctx, v.max_slope_deg, g.verts.data(), nv, tris.data(), nt, areas.data());
  const int side = v.tile_size + 2 * v.border;
  std::unique_ptr<rcHeightfield, decltype(&rcFreeHeightField)> hf(rcAllocHeightfield(),
                                                                  &rcFreeHeightField);
  std::unique_ptr<rcCompactHeightfield, decltype(&rcFreeCompactHeightfield)> chf(
      rcAllocCompactHeightfield(), &rcFreeCompactHeightfield);
  std::unique_ptr<rcHeightfieldLayerSet, decltype(&rcFreeHeightfieldLayerSet)> lset(
      rcAllocHeightfieldLayerSet(), &rcFreeHeightfieldLayerSet);
  const std::string where = absl::StrFormat("tile (%d, %d)", tx, tz);
  if (!rcCreateHeightfield(&ctx, *hf, side, side, bmin, bmax, v.cs, v.ch) ||
      !rcRasterizeTriangles(&ctx, g.verts.data(), nv, tris.data(), areas.data(), nt, *hf,
                            v.walkable_climb)) {
    return absl::InternalError("Recast: rasterizing " + where + " failed");
  }
  rcFilterLowHangingWalkableObstacles(&ctx, v.walkable_climb, *hf);
  rcFilterLedgeSpans(&ctx, v.walkable_height, v.walkable_climb, *hf);
  rcFilterWalkableLowHeightSpans(&ctx, v.walkable_height, *hf);
  if (!rcBuildCompactHeightfield(&ctx, v.walkable_height, v.walkable_climb, *hf, *chf) ||
      !rcErodeWalkableArea(&ctx, v.walkable_radius, *chf) ||
      !rcBuildHeightfieldLayers(&ctx, *chf, v.border, v.walkable_height, *lset)) {
    return absl::InternalError("Recast: heightfield layers of " + where + " failed");
  }
  for (int i = 0; i < lset->nlayers; ++i) {
    const rcHeightfieldLayer& layer = lset->layers[i];
    dtTileCacheLayerHeader header{};
    header.magic = DT_TILECACHE_MAGIC;
    header.version = DT_TILECACHE_VERSION;
    header.tx = tx;
    header.ty = tz;
    header.tlayer = i;
    std::copy(layer.bmin, layer.bmin + 3, header.bmin);
    std::copy(layer.bmax, layer.bmax + 3, header.bmax);
    header.width = static_cast<unsigned char>(layer.width);
    header.height = static_cast<unsigned char>(layer.height);
    header.minx = static_cast<unsigned char>(layer.minx);
    header.maxx = static_cast<unsigned char>(layer.maxx);
    header.miny = static_cast<unsigned char>(layer.miny);
    header.maxy = static_cast<unsigned char>(layer.maxy);
    header.hmin = static_cast<unsigned short>(layer.hmin);
    header.hmax = static_cast<unsigned short>(layer.hmax);
    CompressedLayer built;
    if (dtStatusFailed(dtBuildTileCacheLayer(comp, &header, layer.heights, layer.areas, layer.cons,
                                             &built.data, &built.size))) {
      return absl::InternalError(absl::StrFormat("dtBuildTileCacheLayer: %s layer %d", where, i));
    }
    out->push_back(built);
  }
  return absl::OkStatus();
}

int BitsFor(int count) {
  int bits = 0;
  while ((1 << bits) < count) ++bits;
  return bits;
}

}  // namespace

using tile_cache_internal::BumpAlloc;
using tile_cache_internal::CopyCompressor;
using tile_cache_internal::WalkableFlags;

struct TileCacheSupport {
  BumpAlloc alloc;
  CopyCompressor compressor;
  WalkableFlags mesh_process;
};

absl::StatusOr<std::unique_ptr<TileCacheWorld>> TileCacheWorld::Build(const SourceMesh& geometry,
                                                                      const BakeSettings& settings,
                                                                      int max_obstacles) {
  if (absl::Status ok = CheckSettings(settings); !ok.ok()) return ok;
  const VoxelSettings v = ToVoxels(settings);
  const RecastGeometry g = ToRecast(geometry);
  if (g.tris.empty()) return absl::InvalidArgumentError(geometry.origin + ": no triangles");
  std::unique_ptr<TileCacheWorld> world(new TileCacheWorld());
  world->support_ = std::make_unique<TileCacheSupport>();
  int gw = 0, gh = 0;
  rcCalcGridSize(g.bmin, g.bmax, v.cs, &gw, &gh);
  world->tiles_x_ = (gw + v.tile_size - 1) / v.tile_size;
  world->tiles_z_ = (gh + v.tile_size - 1) / v.tile_size;
  std::vector<CompressedLayer> layers;
  for (int tz = 0; tz < world->tiles_z_; ++tz) {
    for (int tx = 0; tx < world->tiles_x_; ++tx) {
      absl::Status built = BuildTileLayers(g, v, tx, tz, &world->support_->compressor, &layers);
      if (!built.ok()) {
        for (CompressedLayer& l : layers) dtFree(l.data);
        return built;
      }
    }
  }
  world->layer_count_ = int(layers.size());
  const int tile_bits = std::min(BitsFor(std::max(1, world->layer_count_)), kNavMeshRefBits - 6);
  dtTileCacheParams tcp{};
  std::copy(g.bmin, g.bmin + 3, tcp.orig);
  tcp.cs = v.cs;
  tcp.ch = v.ch;
  tcp.width = tcp.height = v.tile_size;
  tcp.walkableHeight = settings.agent.height;
  tcp.walkableRadius = settings.agent.radius;
  tcp.walkableClimb = settings.agent.step_height;
  tcp.maxSimplificationError = kMaxSimplificationError;
  tcp.maxTiles = 1 << tile_bits;
  tcp.maxObstacles = max_obstacles;
  world->cache_ = dtAllocTileCache();
  world->navmesh_ = dtAllocNavMesh();
  dtNavMeshParams nmp{};
  std::copy(g.bmin, g.bmin + 3, nmp.orig);
  nmp.tileWidth = nmp.tileHeight = v.tile_size * v.cs;
  nmp.maxTiles = 1 << tile_bits;
  nmp.maxPolys = 1 << (kNavMeshRefBits - tile_bits);
  TileCacheSupport& s = *world->support_;
  if (!world->cache_ || !world->navmesh_ ||
      dtStatusFailed(world->cache_->init(&tcp, &s.alloc, &s.compressor, &s.mesh_process)) ||
      dtStatusFailed(world->navmesh_->init(&nmp))) {
    for (CompressedLayer& l : layers) dtFree(l.data);
    return absl::InternalError("dtTileCache / dtNavMesh init failed");
  }
  for (size_t i = 0; i < layers.size(); ++i) {
    if (dtStatusFailed(world->cache_->addTile(layers[i].data, layers[i].size,
                                              DT_COMPRESSEDTILE_FREE_DATA, nullptr))) {
      for (size_t k = i; k < layers.size(); ++k) dtFree(layers[k].data);
      return absl::InternalError(absl::StrFormat("dtTileCache::addTile %d failed", i));
    }
  }
  for (int tz = 0; tz < world->tiles_z_; ++tz) {
    for (int tx = 0; tx < world->tiles_x_; ++tx) {
      if (dtStatusFailed(world->cache_->buildNavMeshTilesAt(tx, tz, world->navmesh_))) {
        return absl::InternalError(
            absl::StrFormat("dtTileCache::buildNavMeshTilesAt(%d, %d) failed", tx, tz));
      }
    }
  }
  return world;
}

absl::Status TileCacheWorld::CheckSettings(const BakeSettings& settings) {
  const VoxelSettings v = ToVoxels(settings);
  if (v.tile_size + 2 * v.border > kMaxLayerWidth) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "--tile-size %d voxels + 2 x border %d (agent radius + 3 voxels) exceeds dtTileCache's "
        "%d-voxel layers",
        v.tile_size, v.border, kMaxLayerWidth));
  }
  return absl::OkStatus();
}

TileCacheWorld::~TileCacheWorld() {
  dtFreeTileCache(cache_);
  dtFreeNavMesh(navmesh_);
}

int TileCacheWorld::navmesh_polygons() const {
  const dtNavMesh* nm = navmesh_;
  int polys = 0;
  for (int i = 0; i < nm->getMaxTiles(); ++i) {
    const dtMeshTile* tile = nm->getTile(i);
    if (tile && tile->header) polys += tile->header->polyCount;
  }
  return polys;
}

double TileCacheWorld::navmesh_area() const {
  const dtNavMesh* nm = navmesh_;
  double area = 0;
  for (int i = 0; i < nm->getMaxTiles(); ++i) {
    const dtMeshTile* tile = nm->getTile(i);
    if (!tile || !tile->header) continue;
    for (int p = 0; p < tile->header->polyCount; ++p) {
      const dtPoly& poly = tile->polys[p];
      if (poly.getType() != DT_POLYTYPE_GROUND) continue;
      for (int k = 0; k < poly.vertCount; ++k) {
        const float* a = &tile->verts[3 * poly.verts[k]];
        const float* b = &tile->verts[3 * poly.verts[(k + 1) % poly.vertCount]];
        area += 0.5 * (double(a[0]) * b[2] - double(b[0]) * a[2]);
      }
    }
  }
  return std::abs(area);
}

bool TileCacheWorld::Settle(TileCacheUpdate* result) {
  bool up_to_date = false;
  while (!up_to_date && result->update_calls < kMaxUpdateCalls) {
    ++result->update_calls;
    if (dtStatusFailed(cache_->update(0, navmesh_, &up_to_date))) return false;
  }
  return up_to_date;
}

TileCacheUpdate TileCacheWorld::Add(const std::vector<Vec3>& feet, float radius, float height,
                                    std::vector<dtObstacleRef>* refs) {
  TileCacheUpdate r;
  const size_t first = refs->size();
  const Stopwatch watch;
  for (const Vec3& foot : feet) {
    const float pos[3] = {foot.x, foot.y, foot.z};
    dtObstacleRef ref = 0;
    const dtStatus status = cache_->addObstacle(pos, radius, height, &ref);
    if (dtStatusFailed(status)) {
      if (r.requests_refused++ == 0) r.first_refusal = status;
    } else {
      refs->push_back(ref);
    }
  }
  r.settled = Settle(&r);
  r.ms = watch.ElapsedMs();
  std::set<dtCompressedTileRef> touched;
  for (size_t i = first; i < refs->size(); ++i) {
    const dtTileCacheObstacle* ob = cache_->getObstacleByRef((*refs)[i]);
    if (ob) touched.insert(ob->touched, ob->touched + ob->ntouched);
  }
  r.tiles_rebuilt = int(touched.size());
  return r;
}

TileCacheUpdate TileCacheWorld::Remove(const std::vector<dtObstacleRef>& refs) {
  TileCacheUpdate r;
  std::set<dtCompressedTileRef> touched;
  for (dtObstacleRef ref : refs) {
    const dtTileCacheObstacle* ob = cache_->getObstacleByRef(ref);
    if (ob) touched.insert(ob->touched, ob->touched + ob->ntouched);
  }
  r.tiles_rebuilt = int(touched.size());
  const Stopwatch watch;
  for (dtObstacleRef ref : refs) {
    const dtStatus status = cache_->removeObstacle(ref);
    if (dtStatusFailed(status) && r.requests_refused++ == 0) r.first_refusal = status;
  }
  r.settled = Settle(&r);
  r.ms = watch.ElapsedMs();
  return r;
}

}  // namespace waymesh::bench
