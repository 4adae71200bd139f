// Obstacle update speed against Detour's dtTileCache (issue 29): the same OBJ baked by Waymesh's
// baker and voxelised into dtTileCache layers with the same settings; then, at the same seeded
// random surface points, one cylinder added and the next update removing it again. Each update
// is timed until the navmesh reflects it: for Waymesh ApplyObstacleChanges on the previous
// version plus publishing it, for Detour addObstacle/removeObstacle plus update() until
// upToDate. Finally both take --burst obstacles in one update (dtTileCache queues at most 64
// requests between updates). Each add is also timed as its carving kernel alone (cut and merge
// of the base polygons it reaches: vs_tilecache/carving_kernel.h), the floor under any design
// of what follows the cut. Run:
//   build/rel/bench/vs_tilecache [--dungeon] [--updates 2000] [--layer 0|100] [--seed 29]
// `--help` lists the bake settings (defaults: Recast's usual 0.3 m voxels, 48-voxel tiles).
// The last line, a checksum of every Waymesh version made, shows whether two builds carve alike.

#include <DetourStatus.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "absl/strings/str_format.h"
#include "common/flags.h"
#include "common/stopwatch.h"
#include "obstacle_world/version_checksum.h"
#include "vs_tilecache/carving_kernel.h"
#include "vs_tilecache/tile_cache_world.h"
#include "waymesh/bake/baker.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/obstacles/carve_map.h"
#include "waymesh/core/obstacles/carved_layer.h"
#include "waymesh/format/map_file.h"
#include "waymesh/import/importers.h"

namespace {

using waymesh::bench::CarvingKernel;
using waymesh::bench::kExitUsage;
using waymesh::bench::Stopwatch;
using waymesh::bench::TileCacheUpdate;
using waymesh::bench::TileCacheWorld;

// dtTileCache's request queue between two update() calls (MAX_REQUESTS, private in the header).
constexpr int kTileCacheRequestCap = 64;
// How far below the surface point an obstacle starts (m), so it covers the floor it stands on.
constexpr float kObstacleSink = 0.5f;

struct Args {
  std::string geometry = std::string(WAYMESH_SHARED_DATA) + "/recast/nav_test.obj";
  bool dungeon = false;
  int updates = 2000;
  int layer = 0;
  int burst = 100;
  uint32_t seed = 29;
  float radius = 0.75f;  // obstacle radius (m), before growing by the agent radius
  float height = 2.0f;   // obstacle height (m)
  waymesh::BakeSettings bake;
};

// Parses the flags; exits 2 with CLI11's message naming the flag on a bad one.
Args ParseArgs(int argc, char** argv) {
  Args a;
  a.bake.agent = {.radius = 0.6f,
                  .height = 2.0f,
                  .max_slope_deg = 45.0f,
                  .step_height = 0.9f,
                  .voxel_size = 0.3f};
  a.bake.cell_height = 0.2f;
  a.bake.tile_size = 48;
  CLI::App app{"Obstacle updates: Waymesh carving vs Detour's dtTileCache on one OBJ"};
  app.add_option("--geometry", a.geometry, "OBJ level geometry")->capture_default_str();
  app.add_flag("--dungeon", a.dungeon, "use the shared Recast dungeon.obj instead");
  app.add_option("--updates", a.updates, "timed updates (add, remove, add, ...)")
      ->capture_default_str()
      ->check(CLI::Range(2, 10000000));
  app.add_option("--layer", a.layer, "obstacles already in the layer during the updates")
      ->capture_default_str()
      ->check(CLI::Range(0, 100000));
  app.add_option("--burst", a.burst, "obstacles added at once in the cap test")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app.add_option("--seed", a.seed, "seed of the obstacle positions")->capture_default_str();
  app.add_option("--radius", a.radius, "obstacle cylinder radius (m)")
      ->capture_default_str()
      ->check(CLI::Range(0.05f, 50.0f));
  app.add_option("--height", a.height, "obstacle cylinder height (m)")
      ->capture_default_str()
      ->check(CLI::Range(0.1f, 100.0f));
  app.add_option("--voxel-size", a.bake.agent.voxel_size, "voxel (cell) size (m)")
      ->capture_default_str();
  app.add_option("--cell-height", a.bake.cell_height, "voxel height (m)")->capture_default_str();
  app.add_option("--agent-radius", a.bake.agent.radius, "agent radius (m)")->capture_default_str();
  app.add_option("--agent-height", a.bake.agent.height, "agent height (m)")->capture_default_str();
  app.add_option("--step-height", a.bake.agent.step_height, "agent climb (m)")
      ->capture_default_str();
  app.add_option("--max-slope", a.bake.agent.max_slope_deg, "max slope (degrees)")
      ->capture_default_str();
  app.add_option("--tile-size", a.bake.tile_size, "tile edge (voxels)")->capture_default_str();
  waymesh::bench::ParseFlagsOrExit(app, argc, argv);
  if (a.dungeon) a.geometry = std::string(WAYMESH_SHARED_DATA) + "/recast/dungeon.obj";
  absl::Status valid = waymesh::ValidateBakeSettings(a.bake);
  if (valid.ok()) valid = TileCacheWorld::CheckSettings(a.bake);
  if (!valid.ok()) {
    std::fprintf(stderr, "vs_tilecache: %s\n", std::string(valid.message()).c_str());
    std::exit(kExitUsage);
  }
  return a;
}

[[noreturn]] void Fail(const std::string& what, const absl::Status& status) {
  std::fprintf(stderr, "vs_tilecache: %s: %s\n", what.c_str(),
               std::string(status.message()).c_str());
  std::exit(1);
}

struct Percentiles {
  double median = 0, p90 = 0;
};
Percentiles Summarize(std::vector<double> ms) {
  if (ms.empty()) return {};
  std::sort(ms.begin(), ms.end());
  const auto at = [&](double p) { return ms[std::min(ms.size() - 1, size_t(p * ms.size()))]; };
  return {at(0.5), at(0.9)};
}

// The obstacle Waymesh carves for a surface point: the same vertical extent as Detour's
// cylinder (whose position is its foot); the agent radius is added by carving itself.
waymesh::Obstacle WaymeshCylinder(const Args& a, const waymesh::Vec3& at, int id) {
  waymesh::Obstacle o;
  o.id = "o" + std::to_string(id);
  const waymesh::Vec3 center{at.x, at.y - kObstacleSink + a.height / 2, at.z};
  o.shape = waymesh::CylinderShape{center, a.radius, a.height};
  return o;
}
waymesh::Vec3 DetourFoot(const waymesh::Vec3& at) { return {at.x, at.y - kObstacleSink, at.z}; }

std::vector<waymesh::Vec3> RandomSurfacePoints(const std::shared_ptr<const waymesh::NavMap>& map,
                                               uint32_t seed, int count) {
  waymesh::NavQuery q(map);
  std::mt19937 rng(seed);
  std::vector<waymesh::Vec3> points;
  const waymesh::QueryFilter all;
  while (int(points.size()) < count) {
    const auto at = q.RandomPoint(all, rng);
    if (!at.ok()) Fail("RandomPoint", at.status());
    if (!*at) Fail("RandomPoint", absl::NotFoundError("the baked map has no surface"));
    points.push_back((*at)->pos);
  }
  return points;
}

// Both systems and the state their updates chain on.
struct Contenders {
  std::shared_ptr<const waymesh::NavMap> waymesh_map;
  std::shared_ptr<const waymesh::CarvedLayer> version;
  std::atomic<std::shared_ptr<const waymesh::NavMap>> published;
  std::unique_ptr<TileCacheWorld> detour;
  std::unique_ptr<CarvingKernel> kernel;  // the cut and merge of an add alone, on the base map
  std::vector<unsigned int> detour_refs;  // obstacles now in the tile cache, in order added
  uint64_t checksum = 0;  // of every Waymesh version made so far (version_checksum.h)
};

void BuildBoth(const Args& a, Contenders* c) {
  if (!std::filesystem::is_regular_file(a.geometry)) {
    Fail(a.geometry, absl::NotFoundError("no such geometry file (see --geometry, --dungeon)"));
  }
  Stopwatch watch;
  auto baked = waymesh::BakeMap(a.geometry, "", a.bake);
  if (!baked.ok()) Fail("waymesh bake " + a.geometry, baked.status());
  auto map = waymesh::LoadMap(std::make_shared<const std::string>(std::move(baked->build.bytes)));
  if (!map.ok()) Fail("loading the baked map", map.status());
  c->waymesh_map = *map;
  std::printf("Waymesh bake: %llu polygons in %u tiles (%.2f s)\n",
              static_cast<unsigned long long>(c->waymesh_map->info().polygon_count),
              c->waymesh_map->tile_count(), watch.ElapsedSeconds());
  watch.Restart();
  const auto prepared = waymesh::CarveBase::Prepare(c->waymesh_map);
  if (!prepared.ok()) Fail("CarveBase::Prepare", prepared.status());
  std::printf("Waymesh CarveBase::Prepare: %.1f ms\n", watch.ElapsedMs());
  c->version = waymesh::CarvedLayer::Empty(*prepared);
  c->kernel = std::make_unique<CarvingKernel>(c->waymesh_map);
  c->published.store(c->waymesh_map);
  watch.Restart();
  auto geometry = waymesh::ImportFile(a.geometry);
  if (!geometry.ok()) Fail("importing " + a.geometry, geometry.status());
  auto detour = TileCacheWorld::Build(*geometry, a.bake, a.layer + a.burst + kTileCacheRequestCap);
  if (!detour.ok()) Fail("dtTileCache from " + a.geometry, detour.status());
  c->detour = *std::move(detour);
  std::printf("dtTileCache: %d layers over %d tile columns, navmesh %d polygons (%.2f s)\n",
              c->detour->layer_count(), c->detour->tile_columns(), c->detour->navmesh_polygons(),
              watch.ElapsedSeconds());
}

// Plan-view area of the map's polygons (m²).
double WalkableArea(const waymesh::NavMap& map) {
  double area = 0;
  for (uint32_t t = 0; t < map.tile_count(); ++t) {
    const auto& tile = map.tile(t);
    for (uint32_t p = 0; p < tile.poly_count(); ++p) {
      for (uint32_t i = 0, n = tile.corner_count(p); i < n; ++i) {
        const waymesh::Vec3 a = tile.corner(p, i), b = tile.corner(p, (i + 1) % n);
        area += 0.5 * (double(a.x) * b.z - double(b.x) * a.z);
      }
    }
  }
  return std::abs(area);
}

void PrintAreas(const char* when, const Contenders& c) {
  std::printf("walkable area %s: Waymesh %.1f m², dtTileCache %.1f m²\n", when,
              WalkableArea(*c.version->map()), c.detour->navmesh_area());
}

// Waymesh tiles whose polygon arrays `next` built again (the rest are shared with `prev`).
int RebuiltTiles(const waymesh::NavMap& prev, const waymesh::NavMap& next) {
  int rebuilt = 0;
  for (uint32_t t = 0; t < next.tile_count(); ++t) {
    rebuilt += next.tile(t).vertices.data() != prev.tile(t).vertices.data();
  }
  return rebuilt;
}

// One Waymesh update, timed: the change applied to the newest version and published.
double WaymeshUpdate(Contenders* c, const std::vector<waymesh::Obstacle>& add,
                     const std::vector<std::string>& remove, int* rebuilt) {
  const Stopwatch watch;
  auto next = waymesh::ApplyObstacleChanges(*c->version, add, remove);
  if (!next.ok()) Fail("ApplyObstacleChanges", next.status());
  c->published.store((*next)->map());
  const double ms = watch.ElapsedMs();
  *rebuilt += RebuiltTiles(*c->version->map(), *(*next)->map());
  c->checksum = waymesh::bench::ChecksumVersion(*c->version->map(), *(*next)->map(), c->checksum);
  c->version = *std::move(next);
  return ms;
}

// Exits when dtTileCache failed an update, or refused a request the caller did not expect it to.
void CheckSettled(const TileCacheUpdate& u, const char* what, bool refusals_expected = false) {
  if (!u.settled || (u.requests_refused > 0 && !refusals_expected)) {
    Fail(std::string("dtTileCache ") + what,
         absl::InternalError(absl::StrFormat("%d requests refused (status 0x%x), settled %d",
                                             u.requests_refused, u.first_refusal, u.settled)));
  }
}

// Fills both layers with `a.layer` obstacles (Detour in batches its request queue accepts).
void FillLayer(const Args& a, const std::vector<waymesh::Vec3>& points, Contenders* c) {
  std::vector<waymesh::Obstacle> add;
  for (int i = 0; i < a.layer; ++i) add.push_back(WaymeshCylinder(a, points[i], i));
  int unused = 0;
  const double ms = WaymeshUpdate(c, add, {}, &unused);
  double detour_ms = 0;
  for (int i = 0; i < a.layer; i += kTileCacheRequestCap) {
    std::vector<waymesh::Vec3> feet;
    for (int k = i; k < std::min(a.layer, i + kTileCacheRequestCap); ++k) {
      feet.push_back(DetourFoot(points[k]));
    }
    const TileCacheUpdate u =
        c->detour->Add(feet, a.radius + a.bake.agent.radius, a.height, &c->detour_refs);
    CheckSettled(u, "layer fill");
    detour_ms += u.ms;
  }
  std::printf("layer of %d obstacles: Waymesh %.2f ms, dtTileCache %.2f ms\n", a.layer, ms,
              detour_ms);
}

struct Series {
  std::vector<double> add, remove, all;
  std::vector<double> kernel;           // Waymesh: the carving kernel of each add alone
  int kernel_polygons = 0;              // polygons cut by all adds' kernels
  int tiles_add = 0, tiles_remove = 0;  // tiles rebuilt by all adds / all removes
  void Record(bool adding, double ms) {
    (adding ? add : remove).push_back(ms);
    all.push_back(ms);
  }
};

void TimedUpdates(const Args& a, const std::vector<waymesh::Vec3>& points, Contenders* c) {
  Series wm, dt;
  for (int u = 0; u < a.updates; ++u) {
    const bool adding = u % 2 == 0;
    const int id = a.layer + u / 2;
    const waymesh::Vec3& at = points[id];
    if (adding) {
      wm.Record(true, WaymeshUpdate(c, {WaymeshCylinder(a, at, id)}, {}, &wm.tiles_add));
      const CarvingKernel::Run k = c->kernel->TimeAdd(WaymeshCylinder(a, at, id));
      wm.kernel.push_back(k.ms);
      wm.kernel_polygons += k.polygons_cut;
      const TileCacheUpdate d = c->detour->Add({DetourFoot(at)}, a.radius + a.bake.agent.radius,
                                               a.height, &c->detour_refs);
      CheckSettled(d, "add");
      dt.Record(true, d.ms);
      dt.tiles_add += d.tiles_rebuilt;
    } else {
      wm.Record(false, WaymeshUpdate(c, {}, {"o" + std::to_string(id)}, &wm.tiles_remove));
      const TileCacheUpdate d = c->detour->Remove({c->detour_refs.back()});
      c->detour_refs.pop_back();
      CheckSettled(d, "remove");
      dt.Record(false, d.ms);
      dt.tiles_remove += d.tiles_rebuilt;
    }
  }
  const auto line = [&](const char* what, const std::vector<double>& w,
                        const std::vector<double>& d) {
    const Percentiles pw = Summarize(w), pd = Summarize(d);
    std::printf(
        "  %-7s Waymesh median %8.3f ms p90 %8.3f | dtTileCache median %8.3f ms p90 %8.3f"
        " | Detour/Waymesh %.2fx\n",
        what, pw.median, pw.p90, pd.median, pd.p90, pd.median / pw.median);
  };
  std::printf("%d updates (add one cylinder r=%.2f m h=%.1f m, next removes it), layer of %d:\n",
              a.updates, a.radius, a.height, a.layer);
  line("add", wm.add, dt.add);
  line("remove", wm.remove, dt.remove);
  line("all", wm.all, dt.all);
  const auto per = [](int tiles, const std::vector<double>& ms) {
    return double(tiles) / ms.size();
  };
  std::printf("  tiles rebuilt per add / remove: Waymesh %.2f / %.2f, dtTileCache %.2f / %.2f\n",
              per(wm.tiles_add, wm.add), per(wm.tiles_remove, wm.remove), per(dt.tiles_add, dt.add),
              per(dt.tiles_remove, dt.remove));
  // The floor under any carving design: if the kernel alone is slower than a fifth of
  // dtTileCache's add, restructuring what follows the cut cannot reach 5x.
  const double kernel = Summarize(wm.kernel).median, detour_add = Summarize(dt.add).median;
  std::printf(
      "  carving kernel alone (footprint, cut and merge of the %.2f base polygons an add reaches;"
      " no tile built, nothing published): median %.3f ms = %.0f %% of a Waymesh add;"
      " dtTileCache add / kernel %.2fx (5x needs a whole add within %.3f ms)\n",
      per(wm.kernel_polygons, wm.kernel), kernel, 100 * kernel / Summarize(wm.add).median,
      detour_add / kernel, detour_add / 5);
}

// --burst obstacles in one update: Waymesh takes them in one change; dtTileCache refuses the
// requests past its queue until update() drains it.
void BurstTest(const Args& a, const std::vector<waymesh::Vec3>& points, Contenders* c) {
  const int first = a.layer + a.updates / 2 + 1;
  std::vector<waymesh::Obstacle> add;
  std::vector<waymesh::Vec3> feet;
  for (int i = 0; i < a.burst; ++i) {
    add.push_back(WaymeshCylinder(a, points[first + i], first + i));
    feet.push_back(DetourFoot(points[first + i]));
  }
  int wm_tiles = 0;
  const size_t held = c->version->obstacle_count();
  const double wm_ms = WaymeshUpdate(c, add, {}, &wm_tiles);
  std::printf(
      "%d obstacles in one update: Waymesh took %zu (layer %zu -> %zu) in %.2f ms, %d "
      "tiles rebuilt\n",
      a.burst, c->version->obstacle_count() - held, held, c->version->obstacle_count(), wm_ms,
      wm_tiles);
  const TileCacheUpdate d =
      c->detour->Add(feet, a.radius + a.bake.agent.radius, a.height, &c->detour_refs);
  CheckSettled(d, "burst", /*refusals_expected=*/true);
  std::printf(
      "  dtTileCache: addObstacle accepted %d, refused %d (first refusal status 0x%x%s);"
      " update() until up to date: %.2f ms, %d tiles rebuilt%s\n",
      a.burst - d.requests_refused, d.requests_refused, d.first_refusal,
      (d.first_refusal & DT_BUFFER_TOO_SMALL) ? " = DT_FAILURE | DT_BUFFER_TOO_SMALL" : "", d.ms,
      d.tiles_rebuilt,
      d.requests_refused > 0 ? "; the refused ones must be sent again after update()" : "");
}

}  // namespace

int main(int argc, char** argv) {
  const Args a = ParseArgs(argc, argv);
  std::printf(
      "geometry %s; voxel %.2f m x %.2f m, tiles of %d voxels, agent r %.2f h %.2f climb "
      "%.2f slope %.0f\n",
      a.geometry.c_str(), a.bake.agent.voxel_size, waymesh::EffectiveCellHeight(a.bake),
      a.bake.tile_size, a.bake.agent.radius, a.bake.agent.height, a.bake.agent.step_height,
      a.bake.agent.max_slope_deg);
  Contenders c;
  BuildBoth(a, &c);
  const std::vector<waymesh::Vec3> points =
      RandomSurfacePoints(c.waymesh_map, a.seed, a.layer + a.updates / 2 + 1 + a.burst);
  PrintAreas("baked", c);
  FillLayer(a, points, &c);
  TimedUpdates(a, points, &c);
  PrintAreas("before the burst", c);
  BurstTest(a, points, &c);
  PrintAreas("after the burst", c);
  // Two builds given the same flags must print the same: carving is bit-identical.
  std::printf("checksum of every Waymesh version: %016llx\n",
              static_cast<unsigned long long>(c.checksum));
  return 0;
}
