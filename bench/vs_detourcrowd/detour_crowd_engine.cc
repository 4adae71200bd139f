#include "vs_detourcrowd/detour_crowd_engine.h"

#include <DetourNavMeshQuery.h>

#include <cmath>
#include <variant>

#include "absl/strings/str_format.h"

namespace waymesh::bench {
namespace {

// The polygon flag of a closed gate; the crowd's filter excludes it once a gate closes.
constexpr unsigned short kGateClosedFlag = 0x8000;
// Slot of the avoidance preset every agent uses.
constexpr unsigned char kHighQualityPreset = 3;
// Agent height handed to Detour (metres; it only matters for the neighbour query's height).
constexpr float kAgentHeight = 2.0f;
// Recast demo defaults, as multiples of the agent radius: how far neighbours and walls are
// looked for, and how far ahead the path is shortcut by visibility.
constexpr float kCollisionQueryRadii = 12.0f;
constexpr float kPathOptimizationRadii = 30.0f;
// Recast demo default weight of the separation steering.
constexpr float kSeparationWeight = 2.0f;

}  // namespace

absl::StatusOr<std::unique_ptr<DetourCrowdEngine>> DetourCrowdEngine::Create(dtNavMesh* mesh,
                                                                             int max_agents,
                                                                             float max_radius) {
  std::unique_ptr<DetourCrowdEngine> engine(new DetourCrowdEngine());
  engine->mesh_ = mesh;
  engine->crowd_.reset(dtAllocCrowd());
  if (!engine->crowd_ || !engine->crowd_->init(max_agents, max_radius, mesh)) {
    return absl::ResourceExhaustedError(
        absl::StrFormat("dtCrowd::init failed for %d agents", max_agents));
  }
  // The "high" preset of Recast's demo (CrowdTool): adaptive sampling at its finest.
  dtObstacleAvoidanceParams params = *engine->crowd_->getObstacleAvoidanceParams(0);
  params.velBias = 0.5f;
  params.adaptiveDivs = 7;
  params.adaptiveRings = 3;
  params.adaptiveDepth = 3;
  engine->crowd_->setObstacleAvoidanceParams(kHighQualityPreset, &params);
  return engine;
}

DetourCrowdEngine::~DetourCrowdEngine() {
  for (const dtPolyRef ref : gate_polys_) {
    unsigned short flags = 0;
    if (dtStatusSucceed(mesh_->getPolyFlags(ref, &flags))) {
      mesh_->setPolyFlags(ref, flags & ~kGateClosedFlag);
    }
  }
}

absl::Status DetourCrowdEngine::CloseGate(const Obstacle& gate,
                                          std::shared_ptr<const NavMap> /*carved*/) {
  const auto* box = std::get_if<BoxShape>(&gate.shape);
  if (box == nullptr || box->yaw_deg != 0) {
    return absl::InvalidArgumentError("the Detour gate is an axis-aligned box");
  }
  const dtNavMesh& mesh = *mesh_;
  for (int t = 0; t < mesh.getMaxTiles(); ++t) {
    const dtMeshTile* tile = mesh.getTile(t);
    if (tile == nullptr || tile->header == nullptr) continue;
    const dtPolyRef base = mesh.getPolyRefBase(tile);
    for (int p = 0; p < tile->header->polyCount; ++p) {
      const dtPoly& poly = tile->polys[p];
      if (poly.getType() != DT_POLYTYPE_GROUND || poly.vertCount == 0) continue;
      float cx = 0, cz = 0;
      for (int v = 0; v < poly.vertCount; ++v) {
        cx += tile->verts[poly.verts[v] * 3];
        cz += tile->verts[poly.verts[v] * 3 + 2];
      }
      cx /= float(poly.vertCount);
      cz /= float(poly.vertCount);
      if (std::abs(cx - box->center.x) > box->half_extents.x ||
          std::abs(cz - box->center.z) > box->half_extents.z) {
        continue;
      }
      const dtPolyRef ref = base | dtPolyRef(p);
      mesh_->setPolyFlags(ref, poly.flags | kGateClosedFlag);
      gate_polys_.push_back(ref);
    }
  }
  if (gate_polys_.empty()) return absl::FailedPreconditionError("no Detour polygon in the gate");
  crowd_->getEditableFilter(0)->setExcludeFlags(kGateClosedFlag);
  return absl::OkStatus();
}

absl::Status DetourCrowdEngine::Add(const ScenarioAgent& agent) {
  dtCrowdAgentParams p{};
  p.radius = agent.radius;
  p.height = kAgentHeight;
  p.maxAcceleration = agent.max_accel;
  p.maxSpeed = agent.max_speed;
  p.collisionQueryRange = agent.radius * kCollisionQueryRadii;
  p.pathOptimizationRange = agent.radius * kPathOptimizationRadii;
  p.separationWeight = kSeparationWeight;
  p.updateFlags = DT_CROWD_ANTICIPATE_TURNS | DT_CROWD_OBSTACLE_AVOIDANCE | DT_CROWD_SEPARATION |
                  DT_CROWD_OPTIMIZE_VIS | DT_CROWD_OPTIMIZE_TOPO;
  p.obstacleAvoidanceType = kHighQualityPreset;
  p.queryFilterType = 0;
  const float pos[3] = {agent.position.x, agent.position.y, agent.position.z};
  const int idx = crowd_->addAgent(pos, &p);
  if (idx < 0) {
    return absl::ResourceExhaustedError(
        absl::StrFormat("DetourCrowd refused agent %d (crowd full?)", agent.id));
  }
  if (crowd_->getAgent(idx)->state != DT_CROWDAGENT_STATE_WALKING) {
    return absl::FailedPreconditionError(
        absl::StrFormat("DetourCrowd found no polygon under agent %d", agent.id));
  }
  agents_.push_back(idx);
  return absl::OkStatus();
}

absl::Status DetourCrowdEngine::SetTarget(uint32_t index, Vec3 target) {
  const float pos[3] = {target.x, target.y, target.z};
  dtPolyRef ref = 0;
  float nearest[3];
  const dtQueryFilter* filter = crowd_->getFilter(0);
  if (dtStatusFailed(crowd_->getNavMeshQuery()->findNearestPoly(pos, crowd_->getQueryHalfExtents(),
                                                                filter, &ref, nearest)) ||
      ref == 0) {
    return absl::FailedPreconditionError(absl::StrFormat(
        "DetourCrowd: no polygon near target (%g, %g, %g)", target.x, target.y, target.z));
  }
  if (!crowd_->requestMoveTarget(agents_[index], ref, nearest)) {
    return absl::InternalError("DetourCrowd refused a move request");
  }
  return absl::OkStatus();
}

absl::Status DetourCrowdEngine::Step(float dt) {
  crowd_->update(dt, nullptr);
  return absl::OkStatus();
}

void DetourCrowdEngine::Positions(std::vector<EngineAgent>* out) {
  out->resize(agents_.size());
  for (size_t i = 0; i < agents_.size(); ++i) {
    const dtCrowdAgent* a = crowd_->getAgent(agents_[i]);
    (*out)[i] =
        EngineAgent{{a->npos[0], a->npos[1], a->npos[2]}, a->state == DT_CROWDAGENT_STATE_WALKING};
  }
}

}  // namespace waymesh::bench
