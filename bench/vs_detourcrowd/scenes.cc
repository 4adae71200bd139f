#include "vs_detourcrowd/scenes.h"

#include <algorithm>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "waymesh/crowd_scenario/crowd_scenes.h"
#include "waymesh/demo_world/demo_world.h"

namespace waymesh::bench {
namespace {

// Scene geometry (metres) and run lengths (seconds).
constexpr float kCircleRadius = 20.0f;
constexpr float kCircleArena = 2 * kCircleRadius + 10.0f;
constexpr float kCorridorLength = 50.0f;
constexpr float kCorridorWidth = 6.0f;
constexpr int kCorridorLanes = 2;  // per group: the two groups fit side by side
constexpr float kDoorRoom = 20.0f;
constexpr float kDoorWidth = 2.0f;
constexpr float kDoorWall = 0.5f;
// The gate shuts the door (its whole strip through the wall) this far into the run, when the
// crowd is in the doorway; the agents left behind cannot pass any more.
constexpr double kGateClosesAt = 12;
constexpr double kGateRun = 30;
constexpr int kTownLegs = 3;
constexpr float kTownLegDistance = 40.0f;
constexpr double kShortRun = 40;
constexpr double kDoorRun = 60;
constexpr double kTownRun = 60;
// Townsfolk walk; the arena agents run.
constexpr float kTownSpeed = 1.5f;

absl::StatusOr<Scene> Arena(const std::string& name, const SourceMesh& mesh,
                            CrowdScenario scenario) {
  absl::StatusOr<BenchMap> map = BuildSourceMap(name, mesh);
  if (!map.ok()) return map.status();
  return Scene{name, *std::move(map), std::move(scenario), 1};
}

absl::StatusOr<Scene> BuildScene(const std::string& name, const SceneOptions& o) {
  SceneAgents agents;
  if (name == "circle") {
    agents.duration_s = kShortRun;
    return Arena(name, OpenSquareArena(kCircleArena),
                 CircleSwapScenario(o.circle_agents, kCircleRadius, agents));
  }
  if (name == "corridor") {
    agents.duration_s = kShortRun;
    return Arena(
        name, CorridorArena(kCorridorLength, kCorridorWidth),
        CorridorCrossingScenario(o.corridor_per_group, kCorridorLanes, kCorridorLength, agents));
  }
  if (name == "door") {
    agents.duration_s = kDoorRun;
    return Arena(name, DoorArena(kDoorRoom, kDoorWidth, kDoorWall),
                 DoorScenario(o.door_agents, kDoorRoom, kDoorWall, agents));
  }
  if (name == "gate") {
    agents.duration_s = kGateRun;
    absl::StatusOr<Scene> scene = Arena(name, DoorArena(kDoorRoom, kDoorWidth, kDoorWall),
                                        DoorScenario(o.gate_agents, kDoorRoom, kDoorWall, agents));
    if (!scene.ok()) return scene;
    Obstacle gate;
    gate.id = "gate";
    gate.shape = BoxShape{{0, 0, 0}, {kDoorWall / 2, 2.0f, kDoorWidth / 2}, 0};
    scene->gate = GateClosing{kGateClosesAt, std::move(gate)};
    return scene;
  }
  if (name == "town") {
    std::cerr << "[town] building the " << o.town_size << " m demo town\n";
    DemoWorldOptions demo;
    demo.size = o.town_size;
    demo.seed = o.seed;
    absl::StatusOr<BenchMap> map = BuildDemoWorldMap(name, demo);
    if (!map.ok()) return map.status();
    agents.duration_s = kTownRun;
    agents.max_speed = kTownSpeed;
    absl::StatusOr<CrowdScenario> scenario =
        WanderScenario(map->map, o.town_agents, kTownLegs, kTownLegDistance, o.seed, agents);
    if (!scenario.ok()) return scenario.status();
    return Scene{name, *std::move(map), *std::move(scenario), o.town_quality_every};
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown scene \"", name, "\" (circle, corridor, door, gate, town)"));
}

}  // namespace

absl::StatusOr<std::vector<Scene>> BuildScenes(const std::vector<std::string>& names,
                                               const SceneOptions& options) {
  std::vector<Scene> scenes;
  for (const std::string& name : names) {
    absl::StatusOr<Scene> scene = BuildScene(name, options);
    if (!scene.ok()) return scene.status();
    scenes.push_back(*std::move(scene));
  }
  return scenes;
}

}  // namespace waymesh::bench
