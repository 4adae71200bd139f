#include "crowd_requests.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "waymesh/server/error_model.h"
#include "waymesh/server/proto_conversion.h"
#include "waymesh/server/request_validation.h"

namespace waymesh::server {
namespace {

inline constexpr absl::string_view kCrowdAgentLimitExceeded = "CROWD_AGENT_LIMIT_EXCEEDED";

float OrDefault(float value, float fallback) { return value == 0.0f ? fallback : value; }

v1::CrowdAgentState ToProtoState(crowd::AgentState state) {
  switch (state) {
    case crowd::AgentState::kIdle:
      return v1::CROWD_AGENT_STATE_IDLE;
    case crowd::AgentState::kMoving:
      return v1::CROWD_AGENT_STATE_MOVING;
    case crowd::AgentState::kArrived:
      return v1::CROWD_AGENT_STATE_ARRIVED;
    case crowd::AgentState::kStuck:
      return v1::CROWD_AGENT_STATE_STUCK;
    case crowd::AgentState::kNoPath:
      return v1::CROWD_AGENT_STATE_NO_PATH;
    case crowd::AgentState::kOnLink:
      return v1::CROWD_AGENT_STATE_ON_LINK;
  }
  return v1::CROWD_AGENT_STATE_UNSPECIFIED;
}

absl::Status AddAgent(const v1::AddCrowdAgent& add, uint32_t max_agents, crowd::Crowd& crowd) {
  if (crowd.agent_count() >= max_agents) {
    return WithReason(absl::ResourceExhaustedError(
                          absl::StrCat("add_agent: the session holds ", crowd.agent_count(),
                                       " agents; at most ", max_agents, " (--max-crowd-agents)")),
                      kCrowdAgentLimitExceeded, "limit", "max-crowd-agents");
  }
  absl::StatusOr<crowd::AgentParams> params =
      ToAgentParams(add.params(), crowd.map().info(), "add_agent.params");
  if (!params.ok()) return params.status();
  return crowd.AddAgent(add.id(), FromProto(add.position()), *params);
}

absl::Status SetParams(const v1::SetCrowdAgentParams& set, crowd::Crowd& crowd) {
  absl::StatusOr<crowd::AgentParams> params =
      ToAgentParams(set.params(), crowd.map().info(), "set_params.params");
  if (!params.ok()) return params.status();
  return crowd.SetParams(set.id(), *params);
}

absl::Status SetTarget(const v1::SetCrowdTarget& set, crowd::Crowd& crowd) {
  switch (set.goal_case()) {
    case v1::SetCrowdTarget::kPoint:
      return crowd.SetTarget(set.id(), FromProto(set.point()));
    case v1::SetCrowdTarget::kChaseAgent:
      return crowd.ChaseAgent(set.id(), set.chase_agent());
    case v1::SetCrowdTarget::kFollow:
      return crowd.Follow(set.id(), set.follow().leader(), FromProto(set.follow().offset()));
    case v1::SetCrowdTarget::kClear:
      return crowd.ClearTarget(set.id());
    case v1::SetCrowdTarget::GOAL_NOT_SET:
      break;
  }
  return FieldViolation("set_target.goal", "set one of point, chase_agent, follow, clear");
}

}  // namespace

absl::Status ValidateOpenCrowd(const v1::OpenCrowd& open) {
  if (absl::Status s = ValidateMapId(open.map_id(), "open.map_id"); !s.ok()) return s;
  if (absl::Status s = ValidateAgentType(open.agent_type(), "open.agent_type"); !s.ok()) return s;
  if (!open.obstacles().layer().empty()) {
    if (absl::Status s = ValidateLayerName(open.obstacles().layer(), "open.obstacles.layer");
        !s.ok()) {
      return s;
    }
  }
  if (!v1::CrowdMode_IsValid(open.mode())) {
    return FieldViolation("open.mode", absl::StrCat(open.mode(), " is not a CrowdMode"));
  }
  // A server tick steps by 1 / tick_hz seconds, and a step is at most 1 s.
  const float hz = open.tick_hz();
  if (hz != 0 && !(hz >= 1 && hz <= kMaxCrowdTickHz)) {
    return FieldViolation(
        "open.tick_hz",
        absl::StrCat(hz, " is neither 0 (the caller steps) nor in [1, ", kMaxCrowdTickHz, "]"));
  }
  return absl::OkStatus();
}

absl::Status ValidateStepCrowd(const v1::StepCrowd& step) {
  const float dt = step.dt_seconds();
  if (std::isfinite(dt) && dt > 0 && dt <= 1) return absl::OkStatus();
  return FieldViolation("step.dt_seconds", absl::StrCat(dt, " is not in (0, 1] seconds"));
}

crowd::CrowdOptions ToCrowdOptions(const v1::OpenCrowd& open, uint32_t max_agents) {
  crowd::CrowdOptions options;
  options.mode = open.mode() == v1::CROWD_MODE_CIRCLING ? crowd::AvoidanceMode::kCircling
                                                        : crowd::AvoidanceMode::kOrca;
  options.max_agents = max_agents;
  return options;
}

absl::StatusOr<crowd::AgentParams> ToAgentParams(const v1::CrowdAgentParams& params,
                                                 const MapInfo& info, const char* field) {
  if (absl::Status s = ValidateQueryFilter(params.filter(), absl::StrCat(field, ".filter"));
      !s.ok()) {
    return s;
  }
  crowd::AgentParams out;
  out.radius = OrDefault(params.radius(), out.radius);
  out.max_speed = OrDefault(params.max_speed(), out.max_speed);
  out.max_accel = OrDefault(params.max_accel(), out.max_accel);
  out.filter = ToQueryFilter(params.filter(), info);
  return out;
}

absl::Status ApplyAgentCommand(const v1::RunCrowdRequest& command, uint32_t max_agents,
                               crowd::Crowd& crowd) {
  switch (command.command_case()) {
    case v1::RunCrowdRequest::kAddAgent:
      return AddAgent(command.add_agent(), max_agents, crowd);
    case v1::RunCrowdRequest::kRemoveAgent:
      return crowd.RemoveAgent(command.remove_agent().id());
    case v1::RunCrowdRequest::kSetParams:
      return SetParams(command.set_params(), crowd);
    case v1::RunCrowdRequest::kSetTarget:
      return SetTarget(command.set_target(), crowd);
    case v1::RunCrowdRequest::kTeleport:
      return crowd.Teleport(command.teleport().id(), FromProto(command.teleport().position()));
    default:
      return absl::InternalError("not an agent command");
  }
}

void ToProto(const crowd::AgentUpdate& agent, v1::CrowdAgent* out) {
  out->set_id(agent.id);
  ToProto(agent.pos, out->mutable_position());
  ToProto(agent.vel, out->mutable_velocity());
  out->set_state(ToProtoState(agent.state));
  if (agent.poly.valid()) out->set_poly(agent.poly.bits());
}

}  // namespace waymesh::server
