// Obstacle update cost (issue 29): adding one obstacle to a layer, carving the new map version
// and publishing it (an atomic pointer swap, as a server would), median over many updates on
// the demo town. Run:
//   build/rel/bench/obstacle_update [--size 1024] [--seed 7] [--updates 2000]
//                                   [--layer 0[,100,1000...]] [--incremental 1]
// --layer N keeps N obstacles in the layer before each added one; a list runs each size in
// turn and prints them side by side. By default every update is a whole CarveMap of the layer
// from the base map, so an update costs with the layer's size; --incremental 1 applies each
// update to the previous layer version (ApplyObstacleChanges): every update adds one obstacle
// and the next removes it again, both timed.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "obstacle_world/obstacle_world.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/obstacles/carve_map.h"
#include "waymesh/core/obstacles/carved_layer.h"

namespace {

using Clock = std::chrono::steady_clock;
double Millis(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

struct Args {
  double size = 1024;
  uint64_t seed = 7;
  int updates = 2000;
  std::vector<int> layers{0};
  bool incremental = false;
};

Args ParseArgs(int argc, char** argv) {
  Args args;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (flag == "--size") {
      args.size = std::atof(argv[i + 1]);
    } else if (flag == "--seed") {
      args.seed = std::strtoull(argv[i + 1], nullptr, 10);
    } else if (flag == "--updates") {
      args.updates = std::atoi(argv[i + 1]);
    } else if (flag == "--layer") {
      args.layers.clear();
      for (const char* p = argv[i + 1]; *p != 0;) {
        char* end = nullptr;
        args.layers.push_back(int(std::strtol(p, &end, 10)));
        if (end == p || args.layers.back() < 0) {
          std::fprintf(stderr, "--layer: not a list of counts: %s\n", argv[i + 1]);
          std::exit(2);
        }
        p = *end == ',' ? end + 1 : end;
      }
    } else if (flag == "--incremental") {
      args.incremental = std::atoi(argv[i + 1]) != 0;
    } else {
      std::fprintf(stderr, "unknown flag %s\n", argv[i]);
      std::exit(2);
    }
  }
  return args;
}

struct Result {
  int layer = 0;
  std::vector<double> ms;
  uint64_t changed_tiles = 0;  // at a new generation (polygons or links changed)
  uint64_t rebuilt_tiles = 0;  // incremental: arrays built again (full carve: as changed)
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
      const auto t0 = Clock::now();
      auto next = waymesh::ApplyObstacleChanges(*version, add, remove);
      if (!next.ok()) {
        std::fprintf(stderr, "update %d: %s\n", u, std::string(next.status().message()).c_str());
        return false;
      }
      published.store((*next)->map());
      r->ms.push_back(Millis(t0));
      CountTiles(*version->map(), *(*next)->map(), r);
      version = *std::move(next);
    }
    return true;
  }
  for (int u = 0; u < args.updates; ++u) {
    std::vector<waymesh::Obstacle> next = obstacles;
    next.push_back(waymesh::bench::RandomObstacle(q, rng, layer + u));
    const auto t0 = Clock::now();
    auto carved = waymesh::CarveMap(*prepared, next);
    if (!carved.ok()) {
      std::fprintf(stderr, "update %d: %s\n", u, std::string(carved.status().message()).c_str());
      return false;
    }
    published.store(*carved);
    r->ms.push_back(Millis(t0));
    CountTiles(*base, **carved, r);
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = ParseArgs(argc, argv);
  const auto start = Clock::now();
  const std::shared_ptr<const waymesh::NavMap> base =
      waymesh::bench::BuildObstacleTown(args.size, args.seed);
  std::printf("demo town %.0f m seed %llu: %llu polygons in %u tiles (built in %.1f s)\n",
              args.size, static_cast<unsigned long long>(args.seed),
              static_cast<unsigned long long>(base->info().polygon_count), base->tile_count(),
              Millis(start) / 1000);
  waymesh::NavQuery q(base);
  // Prepared once per loaded map, as a service would.
  const auto prepare_start = Clock::now();
  const auto prepared = waymesh::CarveBase::Prepare(base);
  if (!prepared.ok()) return 1;
  std::printf("CarveBase::Prepare: %.1f ms\n", Millis(prepare_start));
  std::printf("obstacle update (%s, carve + publish), %d updates per layer size\n",
              args.incremental ? "incremental add/remove" : "full carve", args.updates);
  std::printf("%-22s %10s %10s %10s %10s %16s %16s\n", "obstacles in layer", "median ms", "p90 ms",
              "p99 ms", "max ms", "tiles changed/upd", "tiles rebuilt/upd");
  for (const int layer : args.layers) {
    Result r;
    if (!RunLayer(args, *prepared, q, layer, &r) || r.ms.empty()) return 1;
    std::sort(r.ms.begin(), r.ms.end());
    const auto pct = [&](double p) {
      return r.ms[std::min(r.ms.size() - 1, size_t(p * r.ms.size()))];
    };
    std::printf("%-22d %10.3f %10.3f %10.3f %10.3f %16.2f %16.2f\n", layer, pct(0.5), pct(0.9),
                pct(0.99), r.ms.back(), double(r.changed_tiles) / args.updates,
                double(r.rebuilt_tiles) / args.updates);
  }
  return 0;
}
