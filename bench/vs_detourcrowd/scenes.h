#pragma once
// The scenes of the crowd comparison: agents on a circle swapping sides, two groups crossing
// in a corridor, a crowd squeezing through one door, the same door closed by a gate while
// agents stand in it, and thousands wandering the demo town.
// Each comes with its map (compiled here, so it can be written out for `waymesh crowd`).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "vs_detour/bench_map.h"
#include "vs_detourcrowd/scene_run.h"
#include "waymesh/crowd_scenario/crowd_scenario.h"

namespace waymesh::bench {

struct Scene {
  std::string name;
  BenchMap map;
  CrowdScenario scenario;
  uint32_t quality_every = 1;       // judge positions every this many ticks
  std::optional<GateClosing> gate;  // a gate that closes during the run
};

struct SceneOptions {
  int circle_agents = 64;
  int corridor_per_group = 30;
  int door_agents = 100;
  int gate_agents = 60;
  int town_agents = 10'000;
  double town_size = 1024;  // metres, the demo town of `waymesh demo-world --size`
  uint64_t seed = 1;        // demo town and wandering routes
  uint32_t town_quality_every = 5;
};

// The scenes whose names are in `names` ("circle", "corridor", "door", "gate", "town"), in that
// order; an unknown name is an error.
absl::StatusOr<std::vector<Scene>> BuildScenes(const std::vector<std::string>& names,
                                               const SceneOptions& options);

}  // namespace waymesh::bench
