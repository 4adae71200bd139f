#pragma once
// Waymesh's crowd (ORCA, the default mode) behind the comparison's engine interface, stepped
// on one thread.

#include <memory>
#include <vector>

#include "vs_detourcrowd/crowd_engine.h"
#include "waymesh/core/crowd/crowd.h"

namespace waymesh::bench {

class WaymeshCrowdEngine final : public CrowdEngine {
 public:
  static absl::StatusOr<std::unique_ptr<WaymeshCrowdEngine>> Create(
      std::shared_ptr<const NavMap> map, const crowd::CrowdOptions& options);

  std::string_view name() const override { return "Waymesh"; }
  absl::Status Add(const ScenarioAgent& agent) override;
  absl::Status SetTarget(uint32_t index, Vec3 target) override;
  absl::Status Step(float dt) override;
  void Positions(std::vector<EngineAgent>* out) override;
  // Moves the crowd onto the carved map: agents inside the gate go to the nearest free point.
  absl::Status CloseGate(const Obstacle& gate, std::shared_ptr<const NavMap> carved) override;

 private:
  explicit WaymeshCrowdEngine(crowd::Crowd crowd) : crowd_(std::move(crowd)) {}

  crowd::Crowd crowd_;
  crowd::SerialChunkRunner runner_;
  std::vector<crowd::AgentId> ids_;  // by index
  std::vector<crowd::AgentUpdate> snapshot_;
  std::vector<uint32_t> index_of_rank_;  // snapshot (id order) position -> index
};

}  // namespace waymesh::bench
