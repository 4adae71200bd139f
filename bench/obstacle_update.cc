// Obstacle update cost (issue 29): adding one obstacle to a layer, carving the new map version
// and publishing it (an atomic pointer swap, as a server would), median over many updates on
// the demo town. Run:
//   build/rel/bench/obstacle_update [--size 1024] [--seed 7] [--updates 2000]
//                                   [--layer 0[,100,1000...]] [--incremental 1]
// --layer N keeps N obstacles in the layer before each added one; a list runs each size in
// turn and prints them side by side. By default every update is a whole CarveMap of the layer
// from the base map, so an update costs with the layer's size; --incremental 1 applies each
// update to the previous layer version (ApplyObstacleChanges): every update adds one obstacle
// and the next removes it again, both timed. `--help` lists the flags.

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "common/flags.h"
#include "common/stopwatch.h"
#include "obstacle_world/obstacle_world.h"
#include "obstacle_world/version_checksum.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/obstacles/carve_map.h"
#include "waymesh/core/obstacles/carved_layer.h"

namespace {

using waymesh::bench::Stopwatch;

// Ceilings that keep a mistyped count from running for days; far above any documented run.
constexpr int kMaxUpdates = 10000000;
constexpr int kMaxLayer = 100000;

struct Args {
  waymesh::bench::TownFlags town;
  int updates = 2000;
  std::vector<int> layers{0};
  bool incremental = false;
};

// Parses the flags; --help lists them, a bad one exits 2 with CLI11's message naming it.
Args ParseArgs(int argc, char** argv) {
  Args a;
  CLI::App app{"Obstacle update cost on the demo town: carve a layer version and publish it"};
  waymesh::bench::AddTownFlags(app, &a.town);
  app.add_option("--updates", a.updates, "timed updates per layer size")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxUpdates));
  app.add_option("--layer", a.layers,
                 "obstacles in the layer before each update; a comma list (0,100,1000) runs "
                 "each size in turn")
      ->capture_default_str()
      ->delimiter(',')
      ->check(CLI::Range(0, kMaxLayer));
  // A value, not a bare flag, so the documented `--incremental 1` keeps working.
  app.add_option("--incremental", a.incremental,
                 "1: each update changes the previous layer version (ApplyObstacleChanges), "
                 "adding then removing; 0: a whole CarveMap per update")
      ->default_str("0")
      ->check(CLI::IsMember({"0", "1"}));
  waymesh::bench::ParseFlagsOrExit(app, argc, argv);
  return a;
}

struct Result {
  int layer = 0;
  std::vector<double> ms;
  uint64_t changed_tiles = 0;  // at a new generation (polygons or links changed)
  uint64_t rebuilt_tiles = 0;  // incremental: arrays built again (full carve: as changed)
  uint64_t checksum = 0;       // of every version made (version_checksum.h)
};

// Counts the tiles of `next` at another generation than in `before`, and those not shared.
void CountTiles(const waymesh::NavMap& before, const waymesh::NavMap& next, Result* r) {
  for (uint32_t t = 0; t < next.tile_count(); ++t) {
    r->changed_tiles += next.generation(t) != before.generation(t);
    r->rebuilt_tiles += next.tile(t).vertices.data() != before.tile(t).vertices.data();
  }
}

// `args.updates` updates on a layer of `layer` obstacles; false on an error (printed).
bool RunLayer(const Args& args, const std::shared_ptr<const waymesh::CarveBase>& prepared,
              waymesh::NavQuery& q, int layer, Result* r) {
  const std::shared_ptr<const waymesh::NavMap>& base = prepared->map();
  std::mt19937 rng(29);
  std::vector<waymesh::Obstacle> obstacles;
  for (int i = 0; i < layer; ++i) obstacles.push_back(waymesh::bench::RandomObstacle(q, rng, i));
  std::atomic<std::shared_ptr<const waymesh::NavMap>> published(base);
  r->layer = layer;
  if (args.incremental) {
    auto built =
        waymesh::ApplyObstacleChanges(*waymesh::CarvedLayer::Empty(prepared), obstacles, {});
    if (!built.ok()) return false;
    std::shared_ptr<const waymesh::CarvedLayer> version = *built;
    for (int u = 0; u < args.updates; ++u) {
      std::vector<waymesh::Obstacle> add;
      std::vector<std::string> remove;
      if (u % 2 == 0) {
        add.push_back(waymesh::bench::RandomObstacle(q, rng, layer + u));
      } else {
        remove.push_back("o" + std::to_string(layer + u - 1));
      }
      const Stopwatch update_watch;
      auto next = waymesh::ApplyObstacleChanges(*version, add, remove);
      if (!next.ok()) {
        std::fprintf(stderr, "update %d: %s\n", u, std::string(next.status().message()).c_str());
        return false;
      }
      published.store((*next)->map());
      r->ms.push_back(update_watch.ElapsedMs());
      CountTiles(*version->map(), *(*next)->map(), r);
      r->checksum = waymesh::bench::ChecksumVersion(*version->map(), *(*next)->map(), r->checksum);
      version = *std::move(next);
    }
    return true;
  }
  for (int u = 0; u < args.updates; ++u) {
    std::vector<waymesh::Obstacle> next = obstacles;
    next.push_back(waymesh::bench::RandomObstacle(q, rng, layer + u));
    const Stopwatch update_watch;
    auto carved = waymesh::CarveMap(*prepared, next);
    if (!carved.ok()) {
      std::fprintf(stderr, "update %d: %s\n", u, std::string(carved.status().message()).c_str());
      return false;
    }
    published.store(*carved);
    r->ms.push_back(update_watch.ElapsedMs());
    CountTiles(*base, **carved, r);
    r->checksum = waymesh::bench::ChecksumVersion(*base, **carved, r->checksum);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = ParseArgs(argc, argv);
  const Stopwatch build_watch;
  const std::shared_ptr<const waymesh::NavMap> base =
      waymesh::bench::BuildObstacleTown(args.town.size, args.town.seed);
  std::printf("demo town %.0f m seed %llu: %llu polygons in %u tiles (built in %.1f s)\n",
              args.town.size, static_cast<unsigned long long>(args.town.seed),
              static_cast<unsigned long long>(base->info().polygon_count), base->tile_count(),
              build_watch.ElapsedSeconds());
  waymesh::NavQuery q(base);
  // Prepared once per loaded map, as a service would.
  const Stopwatch prepare_watch;
  const auto prepared = waymesh::CarveBase::Prepare(base);
  if (!prepared.ok()) return 1;
  std::printf("CarveBase::Prepare: %.1f ms\n", prepare_watch.ElapsedMs());
  std::printf("obstacle update (%s, carve + publish), %d updates per layer size\n",
              args.incremental ? "incremental add/remove" : "full carve", args.updates);
  std::printf("%-22s %10s %10s %10s %10s %16s %16s %17s\n", "obstacles in layer", "median ms",
              "p90 ms", "p99 ms", "max ms", "tiles changed/upd", "tiles rebuilt/upd",
              "versions checksum");
  for (const int layer : args.layers) {
    Result r;
    if (!RunLayer(args, *prepared, q, layer, &r) || r.ms.empty()) return 1;
    std::sort(r.ms.begin(), r.ms.end());
    const auto pct = [&](double p) {
      return r.ms[std::min(r.ms.size() - 1, size_t(p * r.ms.size()))];
    };
    // Two builds given the same flags print the same checksum when they carve alike.
    std::printf("%-22d %10.3f %10.3f %10.3f %10.3f %16.2f %16.2f  %016llx\n", layer, pct(0.5),
                pct(0.9), pct(0.99), r.ms.back(), double(r.changed_tiles) / args.updates,
                double(r.rebuilt_tiles) / args.updates,
                static_cast<unsigned long long>(r.checksum));
  }
  return 0;
}
