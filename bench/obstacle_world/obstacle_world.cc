#include "obstacle_world/obstacle_world.h"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>
#include <system_error>

#include "waymesh/demo_world/demo_world.h"
#include "waymesh/format/map_file.h"
#include "waymesh/repair/repair.h"

namespace waymesh::bench {

void AddTownFlags(CLI::App& app, TownFlags* town) {
  app.add_option("--size", town->size, "side of the demo town (m)")
      ->capture_default_str()
      ->check(CLI::Range(kDemoMinSize, kDemoMaxSize));
  // CLI11 converts with strtoull(base 0): "-1" and 2^70 would become 2^64-1 and "010" 8, each
  // another town than the one asked for. Only a whole decimal uint64 passes, handed on as such.
  const CLI::Validator decimal_seed(
      [](std::string& value) {
        uint64_t seed = 0;
        const char* end = value.data() + value.size();
        const auto [last, error] = std::from_chars(value.data(), end, seed);
        if (error != std::errc() || last != end) {
          return "not a seed (a whole number 0 to 2^64-1): " + value;
        }
        value = std::to_string(seed);
        return std::string();
      },
      "0..2^64-1");
  app.add_option("--seed", town->seed, "seed of the demo town")
      ->capture_default_str()
      ->transform(decimal_seed);
}

std::shared_ptr<const NavMap> BuildObstacleTown(double size, uint64_t seed) {
  auto world = GenerateDemoWorld({.size = size, .seed = seed});
  if (!world.ok()) {
    std::fprintf(stderr, "demo world: %s\n", std::string(world.status().message()).c_str());
    std::exit(1);
  }
  RepairReport report;
  auto repaired =
      RepairMeshes(std::span<const SourceMesh>(&world->mesh, 1), RepairOptions{}, &report);
  if (!repaired.ok()) std::exit(1);
  auto bytes = CompileMap(*repaired);
  if (!bytes.ok()) std::exit(1);
  auto map = LoadMap(std::make_shared<const std::string>(*std::move(bytes)));
  if (!map.ok()) std::exit(1);
  return *map;
}

Obstacle RandomObstacle(NavQuery& q, std::mt19937& rng, int id) {
  std::uniform_real_distribution<float> u(0, 1);
  const QueryFilter all;
  const auto at = q.RandomPoint(all, rng);
  const Vec3 c = (at.ok() && *at) ? (*at)->pos : Vec3{};
  Obstacle o;
  o.id = "o" + std::to_string(id);
  if (u(rng) < 0.5f) {
    o.shape = CylinderShape{c, 0.5f + u(rng), 2};
  } else {
    o.shape = BoxShape{c, {0.5f + 2 * u(rng), 1, 0.5f + u(rng)}, 360 * u(rng)};
  }
  return o;
}

}  // namespace waymesh::bench
