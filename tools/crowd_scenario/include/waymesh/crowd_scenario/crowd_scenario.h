#pragma once
// Crowd scenario files for `waymesh crowd` and the crowd benchmark (docs/crowd.md): the tick
// rate, how long to run, the agents with their goals (a point, a route of points, another agent
// to chase, a leader to follow) and timed events (re-target, chase, follow, stop, teleport,
// add, remove). Files come from outside: every field is checked, and an error names the agent
// or event and the field.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/core/crowd/crowd.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

// Largest agent count and event count of one scenario, and longest run (ticks): bound memory
// and time for files from outside.
inline constexpr size_t kMaxScenarioAgents = 1'000'000;
inline constexpr size_t kMaxScenarioEvents = 1'000'000;
inline constexpr size_t kMaxScenarioRoute = 1024;
inline constexpr uint64_t kMaxScenarioTicks = 10'000'000;

struct ScenarioAgent {
  crowd::AgentId id = 0;
  Vec3 position;
  // At most one goal: a route of points (a single "target" is a route of one), an agent to
  // chase, or a leader to follow at `offset` (x right, z forward). None: the agent stands.
  std::vector<Vec3> route;
  std::optional<crowd::AgentId> target_agent;
  std::optional<crowd::AgentId> leader;
  Vec3 offset;
  float radius = 0.5f;
  float max_speed = 3.5f;
  float max_accel = 10.0f;
  // Area ids the agent may walk on; empty: every area.
  std::vector<uint8_t> areas;
};

struct ScenarioEvent {
  enum class Kind { kRetarget, kChase, kFollow, kStop, kTeleport, kRemove, kAdd };
  double t = 0;  // seconds from the start
  Kind kind = Kind::kRetarget;
  crowd::AgentId agent = 0;
  Vec3 point;                // kRetarget target, kTeleport position
  crowd::AgentId other = 0;  // kChase target agent, kFollow leader
  Vec3 offset;               // kFollow
  ScenarioAgent added;       // kAdd
};

struct CrowdScenario {
  double tick_hz = 20;
  double duration_s = 60;
  std::optional<crowd::AvoidanceMode> mode;  // the file's choice; the command line may override
  std::vector<ScenarioAgent> agents;
  std::vector<ScenarioEvent> events;  // by time (file order among equal times)

  uint64_t ticks() const;
};

// Parses a scenario; `origin` names the input in messages ("scenario.json: agents[3].radius
// must be a number").
absl::StatusOr<CrowdScenario> ParseCrowdScenario(std::string_view json, std::string_view origin);
// Reads and parses a scenario file.
absl::StatusOr<CrowdScenario> ReadCrowdScenario(const std::string& path);
// The scenario as JSON that ParseCrowdScenario reads back to the same scenario.
std::string CrowdScenarioJson(const CrowdScenario& scenario);

// "orca" / "circling".
absl::StatusOr<crowd::AvoidanceMode> ParseAvoidanceMode(std::string_view name);
std::string_view AvoidanceModeName(crowd::AvoidanceMode mode);

}  // namespace waymesh
