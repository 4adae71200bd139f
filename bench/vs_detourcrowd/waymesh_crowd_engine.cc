#include "vs_detourcrowd/waymesh_crowd_engine.h"

#include <algorithm>
#include <numeric>

namespace waymesh::bench {

absl::StatusOr<std::unique_ptr<WaymeshCrowdEngine>> WaymeshCrowdEngine::Create(
    std::shared_ptr<const NavMap> map, const crowd::CrowdOptions& options) {
  absl::StatusOr<crowd::Crowd> crowd = crowd::Crowd::Create(std::move(map), options);
  if (!crowd.ok()) return crowd.status();
  return std::unique_ptr<WaymeshCrowdEngine>(new WaymeshCrowdEngine(*std::move(crowd)));
}

absl::Status WaymeshCrowdEngine::Add(const ScenarioAgent& agent) {
  crowd::AgentParams params;
  params.radius = agent.radius;
  params.max_speed = agent.max_speed;
  params.max_accel = agent.max_accel;
  if (absl::Status s = crowd_.AddAgent(agent.id, agent.position, params); !s.ok()) return s;
  ids_.push_back(agent.id);
  return absl::OkStatus();
}

absl::Status WaymeshCrowdEngine::SetTarget(uint32_t index, Vec3 target) {
  return crowd_.SetTarget(ids_[index], target);
}

absl::Status WaymeshCrowdEngine::Step(float dt) { return crowd_.Step(dt, runner_); }

absl::Status WaymeshCrowdEngine::CloseGate(const Obstacle& /*gate*/,
                                           std::shared_ptr<const NavMap> carved) {
  return crowd_.SetMap(std::move(carved));
}

void WaymeshCrowdEngine::Positions(std::vector<EngineAgent>* out) {
  if (index_of_rank_.size() != ids_.size()) {
    // Snapshot lists agents by id: map its order back to the order of adding.
    index_of_rank_.resize(ids_.size());
    std::iota(index_of_rank_.begin(), index_of_rank_.end(), 0u);
    std::sort(index_of_rank_.begin(), index_of_rank_.end(),
              [&](uint32_t a, uint32_t b) { return ids_[a] < ids_[b]; });
  }
  crowd_.Snapshot(&snapshot_);
  out->resize(snapshot_.size());
  for (size_t rank = 0; rank < snapshot_.size(); ++rank) {
    const crowd::AgentUpdate& u = snapshot_[rank];
    (*out)[index_of_rank_[rank]] = EngineAgent{u.pos, u.state != crowd::AgentState::kOnLink};
  }
}

}  // namespace waymesh::bench
