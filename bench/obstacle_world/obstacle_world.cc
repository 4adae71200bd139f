#include "obstacle_world/obstacle_world.h"

#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "waymesh/demo_world/demo_world.h"
#include "waymesh/format/map_file.h"
#include "waymesh/repair/repair.h"

namespace waymesh::bench {

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
