#pragma once
// The map flags and loading of the benchmarks of exact mode's corner design (corner_graph_stats,
// corner_hub_labels): the demo town or a map file, loaded as vs_detour loads it (a .mesh keeps
// its polygons as they are), with the exact landmark table when asked for.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "CLI/CLI.hpp"
#include "vs_detour/bench_map.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/demo_world/demo_world.h"

namespace waymesh::bench {

struct CornerBenchMap {
  std::string map = "demo";
  DemoWorldOptions demo{.size = 1022};
  uint64_t seed = 7;  // of the demo town and of the pairs
  bool exact_landmarks = false;
};

// Adds --map, --demo-size, --seed and --exact-landmarks to `app`. Call
// FinishCornerBenchFlags after parsing.
inline void AddCornerBenchMapFlags(CLI::App& app, CornerBenchMap* m) {
  app.add_option("--map", m->map, "'demo', or a map file (.wmesh, or .mesh/.obj/export JSON)")
      ->capture_default_str();
  app.add_option("--demo-size", m->demo.size, "demo town side (m)")->capture_default_str();
  app.add_option("--seed", m->seed, "seed of the demo town and the pairs")->capture_default_str();
  app.add_flag("--exact-landmarks", m->exact_landmarks,
               "build the exact landmark table (the exact search's heuristic) before timing");
}

inline void FinishCornerBenchFlags(CornerBenchMap* m) { m->demo.seed = m->seed; }

// The map, with the exact landmark table when asked for; prints the error and exits with 1
// when it does not load.
inline std::shared_ptr<const NavMap> LoadCornerBenchMap(const CornerBenchMap& m) {
  RepairOptions keep_polygons;
  keep_polygons.merge = false;
  auto loaded = m.map == "demo" ? BuildDemoWorldMap("demo", m.demo)
                                : LoadBenchMap("map", m.map, keep_polygons);
  if (!loaded.ok()) {
    std::fprintf(stderr, "%s: %s\n", m.map.c_str(), std::string(loaded.status().message()).c_str());
    std::exit(1);
  }
  if (!m.exact_landmarks) return loaded->map;
  return WithSearchTables(loaded->map, {.exact_landmarks = true});
}

}  // namespace waymesh::bench
