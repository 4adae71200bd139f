#pragma once
// What the crowd comparison needs of a crowd library: add agents, send them to points, step
// by dt and report positions. One implementation drives Waymesh's crowd, one DetourCrowd.

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/obstacles/obstacle.h"
#include "waymesh/core/vec3.h"
#include "waymesh/crowd_scenario/crowd_scenario.h"

namespace waymesh::bench {

struct EngineAgent {
  Vec3 pos;
  bool on_surface = true;  // false while an engine moves the agent off the mesh (links)
};

class CrowdEngine {
 public:
  virtual ~CrowdEngine() = default;
  virtual std::string_view name() const = 0;
  // Adds the next agent (agents are numbered 0, 1, ... in the order added).
  virtual absl::Status Add(const ScenarioAgent& agent) = 0;
  // Sends agent `index` to `target`.
  virtual absl::Status SetTarget(uint32_t index, Vec3 target) = 0;
  // Advances the crowd by dt seconds on the calling thread.
  virtual absl::Status Step(float dt) = 0;
  // Every agent's position, by index.
  virtual void Positions(std::vector<EngineAgent>* out) = 0;
  // A gate closes: the block obstacle `gate` now stands on the map (`carved`: the map with it
  // carved in, for engines that can carve), also on agents standing in it.
  virtual absl::Status CloseGate(const Obstacle& gate, std::shared_ptr<const NavMap> carved) = 0;
};

}  // namespace waymesh::bench
