#pragma once
// A crowd session's commands as core sees them: validation of what core does not check itself
// (field names, the session's limits) and the conversions between waymesh.v1's crowd messages
// and waymesh::crowd. Core checks agent parameters and positions and names the agent.

#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "waymesh/core/crowd/crowd.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/v1/crowd.pb.h"

namespace waymesh::server {

// Highest server tick rate a session may ask for (the lowest is 1 Hz: a step is at most 1 s).
inline constexpr float kMaxCrowdTickHz = 60.0f;

// The open command: map name, layer name, mode, tick rate (fields named "open.map_id", ...).
absl::Status ValidateOpenCrowd(const v1::OpenCrowd& open);
// A step's dt: finite, in (0, 1] seconds.
absl::Status ValidateStepCrowd(const v1::StepCrowd& step);

// Core options of a session opened by `open` holding at most `max_agents` agents.
crowd::CrowdOptions ToCrowdOptions(const v1::OpenCrowd& open, uint32_t max_agents);
// Agent parameters (0 = the default of each) with the filter over the map's area costs;
// INVALID_ARGUMENT naming the filter field (`field`.filter...) when it is bad.
absl::StatusOr<crowd::AgentParams> ToAgentParams(const v1::CrowdAgentParams& params,
                                                 const MapInfo& info, const char* field);

// Applies one agent command (add_agent, remove_agent, set_params, set_target, teleport) to
// `crowd`. add_agent past `max_agents` is RESOURCE_EXHAUSTED naming --max-crowd-agents.
absl::Status ApplyAgentCommand(const v1::RunCrowdRequest& command, uint32_t max_agents,
                               crowd::Crowd& crowd);

void ToProto(const crowd::AgentUpdate& agent, v1::CrowdAgent* out);

}  // namespace waymesh::server
