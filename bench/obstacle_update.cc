// Obstacle update cost (issue 29): adding one obstacle to a layer, carving the new map version
// and publishing it (an atomic pointer swap, as a server would), median over many updates on
// the demo town. Run:
//   build/rel/bench/obstacle_update [--size 1024] [--seed 7] [--updates 2000] [--layer 0]
//                                   [--incremental 1]
// --layer N keeps N obstacles in the layer before each added one. By default every update is a
// whole CarveMap of the layer from the base map, so an update costs with the layer's size;
// --incremental 1 applies each update to the previous layer version (ApplyObstacleChanges):
// every update adds one obstacle and the next removes it again, both timed.

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

#include "waymesh/core/nav_query.h"
#include "waymesh/core/obstacles/carve_map.h"
#include "waymesh/core/obstacles/carved_layer.h"
#include "waymesh/demo_world/demo_world.h"
#include "waymesh/format/map_file.h"
#include "waymesh/repair/repair.h"

namespace {

using Clock = std::chrono::steady_clock;
double Millis(Clock::time_point since) {
  return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

struct Args {
  double size = 1024;
  uint64_t seed = 7;
  int updates = 2000;
  int layer = 0;
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
      args.layer = std::atoi(argv[i + 1]);
    } else if (flag == "--incremental") {
      args.incremental = std::atoi(argv[i + 1]) != 0;
    } else {
      std::fprintf(stderr, "unknown flag %s\n", argv[i]);
      std::exit(2);
    }
  }
  return args;
}

std::shared_ptr<const waymesh::NavMap> BuildTown(const Args& args) {
  auto world = waymesh::GenerateDemoWorld({.size = args.size, .seed = args.seed});
  if (!world.ok()) {
    std::fprintf(stderr, "demo world: %s\n", std::string(world.status().message()).c_str());
    std::exit(1);
  }
  waymesh::RepairReport report;
  auto repaired = waymesh::RepairMeshes(std::span<const waymesh::SourceMesh>(&world->mesh, 1),
                                        waymesh::RepairOptions{}, &report);
  if (!repaired.ok()) std::exit(1);
  auto bytes = waymesh::CompileMap(*repaired);
  if (!bytes.ok()) std::exit(1);
  auto map = waymesh::LoadMap(std::make_shared<const std::string>(*std::move(bytes)));
  if (!map.ok()) std::exit(1);
  return *map;
}

// A crate, a barrel or a wall segment standing on a random surface point.
waymesh::Obstacle RandomObstacle(waymesh::NavQuery& q, std::mt19937& rng, int id) {
  std::uniform_real_distribution<float> u(0, 1);
  const waymesh::QueryFilter all;
  const auto at = q.RandomPoint(all, rng);
  const waymesh::Vec3 c = (at.ok() && *at) ? (*at)->pos : waymesh::Vec3{};
  waymesh::Obstacle o;
  o.id = "o" + std::to_string(id);
  if (u(rng) < 0.5f) {
    o.shape = waymesh::CylinderShape{c, 0.5f + u(rng), 2};
  } else {
    o.shape = waymesh::BoxShape{c, {0.5f + 2 * u(rng), 1, 0.5f + u(rng)}, 360 * u(rng)};
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = ParseArgs(argc, argv);
  const auto start = Clock::now();
  const std::shared_ptr<const waymesh::NavMap> base = BuildTown(args);
  std::printf("demo town %.0f m seed %llu: %llu polygons in %u tiles (built in %.1f s)\n",
              args.size, static_cast<unsigned long long>(args.seed),
              static_cast<unsigned long long>(base->info().polygon_count), base->tile_count(),
              Millis(start) / 1000);
  waymesh::NavQuery q(base);
  std::mt19937 rng(29);
  std::vector<waymesh::Obstacle> layer;
  for (int i = 0; i < args.layer; ++i) layer.push_back(RandomObstacle(q, rng, i));
  // Prepared once per loaded map, as a service would.
  const auto prepare_start = Clock::now();
  const auto prepared = waymesh::CarveBase::Prepare(base);
  if (!prepared.ok()) return 1;
  std::printf("CarveBase::Prepare: %.1f ms\n", Millis(prepare_start));
  std::atomic<std::shared_ptr<const waymesh::NavMap>> published(base);
  std::vector<double> ms;
  uint64_t changed_tiles = 0;  // at a new generation (polygons or links changed)
  uint64_t rebuilt_tiles = 0;  // incremental: arrays built again (full carve: as changed)
  if (args.incremental) {
    auto built = waymesh::ApplyObstacleChanges(*waymesh::CarvedLayer::Empty(*prepared), layer, {});
    if (!built.ok()) return 1;
    std::shared_ptr<const waymesh::CarvedLayer> version = *built;
    for (int u = 0; u < args.updates; ++u) {
      std::vector<waymesh::Obstacle> add;
      std::vector<std::string> remove;
      if (u % 2 == 0) {
        add.push_back(RandomObstacle(q, rng, args.layer + u));
      } else {
        remove.push_back("o" + std::to_string(args.layer + u - 1));
      }
      const auto t0 = Clock::now();
      auto next = waymesh::ApplyObstacleChanges(*version, add, remove);
      if (!next.ok()) {
        std::fprintf(stderr, "update %d: %s\n", u, std::string(next.status().message()).c_str());
        return 1;
      }
      published.store((*next)->map());
      ms.push_back(Millis(t0));
      for (uint32_t t = 0; t < base->tile_count(); ++t) {
        changed_tiles += (*next)->map()->generation(t) != version->map()->generation(t);
        rebuilt_tiles +=
            (*next)->map()->tile(t).vertices.data() != version->map()->tile(t).vertices.data();
      }
      version = *std::move(next);
    }
  }
  for (int u = 0; u < args.updates && !args.incremental; ++u) {
    std::vector<waymesh::Obstacle> next = layer;
    next.push_back(RandomObstacle(q, rng, args.layer + u));
    const auto t0 = Clock::now();
    auto carved = waymesh::CarveMap(**prepared, next);
    if (!carved.ok()) {
      std::fprintf(stderr, "update %d: %s\n", u, std::string(carved.status().message()).c_str());
      return 1;
    }
    published.store(*carved);
    ms.push_back(Millis(t0));
    for (uint32_t t = 0; t < base->tile_count(); ++t) {
      changed_tiles += (*carved)->generation(t) != base->generation(t);
    }
  }
  std::sort(ms.begin(), ms.end());
  const auto pct = [&](double p) { return ms[std::min(ms.size() - 1, size_t(p * ms.size()))]; };
  std::printf(
      "obstacle update (%s, layer of %d + 1, carve + publish), %d updates: median %.3f ms, p90 "
      "%.3f ms, p99 %.3f ms, max %.3f ms; %.2f tiles changed per update (%.2f rebuilt)\n",
      args.incremental ? "incremental add/remove" : "full carve", args.layer, args.updates,
      pct(0.5), pct(0.9), pct(0.99), ms.back(), double(changed_tiles) / args.updates,
      double(args.incremental ? rebuilt_tiles : changed_tiles) / args.updates);
  return 0;
}
