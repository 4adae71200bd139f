#pragma once
// What the obstacle benchmarks share: the demo town they run on and the obstacles they drop
// on it.

#include <cstdint>
#include <memory>
#include <random>

#include "CLI/CLI.hpp"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/obstacles/obstacle.h"

namespace waymesh::bench {

// The demo town an obstacle benchmark runs on, as its flags give it.
struct TownFlags {
  double size = 1024;  // side (m)
  uint64_t seed = 7;
};

// Adds --size and --seed to `app`, filling `town`; a size outside the demo world's limits or a
// negative seed is a parse error naming the flag.
void AddTownFlags(CLI::App& app, TownFlags* town);

// The demo town of `size` metres and `seed`, through the real pipeline (generate, repair,
// compile, load), resident. Exits the process on failure.
std::shared_ptr<const NavMap> BuildObstacleTown(double size, uint64_t seed);

// A block obstacle "o<id>" standing on a random surface point of `q`'s map: a barrel (a
// cylinder of radius 0.5..1.5 m) or a crate or wall segment (a box 1..5 x 1..3 m, any yaw).
Obstacle RandomObstacle(NavQuery& q, std::mt19937& rng, int id);

}  // namespace waymesh::bench
