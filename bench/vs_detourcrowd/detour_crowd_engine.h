#pragma once
// DetourCrowd (Debian librecast-dev 1.5.1) behind the comparison's engine interface, on the
// dtNavMesh that vs_detour builds from the same Waymesh map. Agents use every steering feature
// DetourCrowd has (anticipated turns, obstacle avoidance, separation, path optimisation) and
// the highest-quality avoidance preset of Recast's demo (adaptive sampling, 7 divisions, 3
// rings, depth 3).

#include <DetourCrowd.h>

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "vs_detourcrowd/crowd_engine.h"

namespace waymesh::bench {

class DetourCrowdEngine final : public CrowdEngine {
 public:
  // A crowd of up to `max_agents` agents of radius up to `max_radius` on `mesh` (not owned;
  // only CloseGate changes it, and the engine undoes that when it is destroyed).
  static absl::StatusOr<std::unique_ptr<DetourCrowdEngine>> Create(dtNavMesh* mesh, int max_agents,
                                                                   float max_radius);
  ~DetourCrowdEngine() override;

  std::string_view name() const override { return "DetourCrowd"; }
  absl::Status Add(const ScenarioAgent& agent) override;
  absl::Status SetTarget(uint32_t index, Vec3 target) override;
  absl::Status Step(float dt) override;
  void Positions(std::vector<EngineAgent>* out) override;
  // Detour cannot carve an imported mesh (dtTileCache needs its own heightfield layers), so
  // the gate is what a Detour user does instead: the polygons whose centre lies in its
  // footprint get a flag the crowd's filter excludes. dtCrowd then moves agents standing on
  // them to the nearest polygon it still accepts.
  absl::Status CloseGate(const Obstacle& gate, std::shared_ptr<const NavMap> carved) override;

 private:
  struct Free {
    void operator()(dtCrowd* crowd) const { dtFreeCrowd(crowd); }
  };
  DetourCrowdEngine() = default;

  dtNavMesh* mesh_ = nullptr;
  std::unique_ptr<dtCrowd, Free> crowd_;
  std::vector<int> agents_;            // Detour agent index, by index
  std::vector<dtPolyRef> gate_polys_;  // closed by CloseGate, reopened by the destructor
};

}  // namespace waymesh::bench
