#pragma once
// A crowd: agents (circles on the navmesh) that follow paths to their targets, avoid each other
// and the walls, and never overlap, stepped at a fixed dt. Each agent follows the polygon
// corridor of a FindPath towards its goal, picks its velocity with ORCA (optimal reciprocal
// collision avoidance) or by circling (turning its heading until the predicted move is free),
// and overlapping agents are pushed apart (repulsion) in both modes; a move never leaves the
// mesh and keeps the agent's centre its radius away from walls. Goals are a point, a ring slot
// round a chased agent or shared point (surround) or a slot behind a leader (formation).
//
// One Crowd belongs to one caller at a time (a server session): commands and Step must not
// run concurrently. Step spreads its work through a ChunkRunner and is deterministic: the same
// commands give bit-identical states on every run and any worker or chunk count.

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "waymesh/core/crowd/chunk_runner.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/poly_ref.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/vec3.h"

namespace waymesh::crowd {

namespace internal {
struct CrowdState;
}  // namespace internal

// The caller's name for an agent (any value; unique within a crowd).
using AgentId = uint32_t;

enum class AvoidanceMode : uint8_t {
  kOrca,      // velocity obstacles: the velocity closest to the wanted one that is collision free
  kCircling,  // turn the heading 10°, 20°, ... either way until the predicted move is free
};

enum class AgentState : uint8_t {
  kIdle,     // no goal: stands (and makes way)
  kMoving,   // walking its path
  kArrived,  // at its goal (its point, ring slot or formation slot)
  kStuck,    // made no progress through several re-plans; keeps trying
  kNoPath,   // its goal is off the mesh or cannot be reached under its filter; stands
  kOnLink,   // crossing an off-mesh link (ladder, jump): its position is on the link, not on
             // the surface, and it does not avoid anyone until it lands
};

// "idle", "moving", "arrived", "stuck", "no_path", "on_link".
std::string_view AgentStateName(AgentState state);

struct CrowdOptions {
  AvoidanceMode mode = AvoidanceMode::kOrca;
  uint32_t max_agents = 100'000;
  // Box half size (metres) that puts spawn points and targets on the mesh.
  Vec3 half_extents{2.0f, 4.0f, 2.0f};

  // ORCA: how far ahead (seconds) collisions with agents and with walls are avoided.
  float time_horizon = 2.0f;
  float wall_time_horizon = 0.5f;
  // Nearest agents considered per agent (at most 32; 6 as DetourCrowd: measured on the crowd
  // scenes, 10 arrive no better and cost a quarter more), and how far they may be (metres,
  // plan view).
  uint32_t max_neighbours = 6;
  float neighbour_range = 6.0f;
  // ORCA keeps agents this much further apart (metres) than their radii, so that the ticks'
  // discrete steps and crowds too dense to avoid everyone still end up clear of overlaps.
  float orca_margin = 0.05f;
  // An agent with another coming towards it on its way turns its wanted direction this many
  // degrees to its right, so that crowds meeting head-on form lanes instead of jamming (0: off).
  float keep_right_deg = 15.0f;

  // Repulsion: speed (m/s) at which overlapping agents separate.
  float separation_speed = 1.0f;
  // Circling: heading step (degrees) of the search and of the easing back to the path.
  float circling_step_deg = 10.0f;

  // Within this distance (metres, plan view) of its goal an agent has arrived.
  float arrive_distance = 0.2f;
  // An agent that gets no closer to its goal by progress_distance (metres) within
  // progress_seconds re-plans; after stuck_replans such re-plans in a row it is kStuck.
  float progress_seconds = 2.0f;
  float progress_distance = 0.3f;
  uint32_t stuck_replans = 3;
  // Most paths planned per tick (agents in id order; the rest plan on later ticks), and the
  // least time (seconds) between two re-plans of one agent that are not forced by a new goal.
  uint32_t max_replans_per_tick = 256;
  float min_replan_interval = 0.5f;
  // A followed or chased goal that moved this far (metres) from the planned end is re-planned.
  float goal_moved_distance = 1.0f;
  // A* node budget of one crowd path (paths beyond it are followed as far as found).
  uint32_t max_path_nodes = 8192;
  // The crowd's query objects: node pool, landmarks, dead ends and the cluster graph for long
  // paths (a server passes its own, so --path-hierarchy reaches its crowds too).
  NavQueryOptions query;

  // Wall segments are gathered this much further (metres) than needed, so an agent re-reads
  // them only after walking that far.
  float wall_cache_slack = 1.5f;
  // Agents per chunk of a tick (the unit of work handed to the ChunkRunner).
  uint32_t chunk_agents = 256;
};

// Per-agent parameters (a copy of `filter` is kept).
struct AgentParams {
  float radius = 0.5f;      // metres
  float max_speed = 3.5f;   // m/s
  float max_accel = 10.0f;  // m/s²: how fast the wanted velocity may change
  QueryFilter filter;       // polygons the agent may walk on
};

// An agent as the caller sees it.
struct AgentUpdate {
  AgentId id = 0;
  Vec3 pos;  // on the surface (except kOnLink)
  Vec3 vel;  // m/s, plan view (y = 0)
  AgentState state = AgentState::kIdle;
  PolyRef poly;  // polygon under `pos`
  // Metres, from its parameters; informational: a radius change alone does not make an agent
  // "changed".
  float radius = 0;
};

// What the last Step did.
struct TickStats {
  uint32_t replans = 0;          // paths planned
  uint32_t replans_waiting = 0;  // agents that wanted a path and wait for a later tick
  uint32_t wall_refreshes = 0;   // wall caches re-read
};

class Crowd {
 public:
  // A crowd on `map`; InvalidArgument naming the option when one is out of range.
  static absl::StatusOr<Crowd> Create(std::shared_ptr<const NavMap> map,
                                      const CrowdOptions& options = {});
  ~Crowd();
  Crowd(Crowd&&) noexcept;
  Crowd& operator=(Crowd&&) noexcept;

  // Adds an agent at the surface point nearest `pos`: InvalidArgument for a taken id or bad
  // parameters, FailedPrecondition when no accepted polygon is near `pos`,
  // ResourceExhausted beyond max_agents.
  absl::Status AddAgent(AgentId id, Vec3 pos, const AgentParams& params);
  // Removes an agent; agents chasing or following it go idle. NotFound for an unknown id.
  absl::Status RemoveAgent(AgentId id);
  // Changes an agent's parameters (radius, speeds, filter); its path is planned again.
  absl::Status SetParams(AgentId id, const AgentParams& params);
  // Sends the agent to `target` (put on the mesh with its filter; off the mesh: kNoPath).
  // Agents sent to exactly the same point share a ring of slots round it.
  absl::Status SetTarget(AgentId id, Vec3 target);
  // The agent chases `target` (another agent), taking a free slot on a ring round it.
  absl::Status ChaseAgent(AgentId id, AgentId target);
  // The agent keeps `offset` (metres: x right, z forward, in the leader's heading frame) from
  // `leader`.
  absl::Status Follow(AgentId id, AgentId leader, Vec3 offset);
  // Drops the agent's goal: it stands (kIdle).
  absl::Status ClearTarget(AgentId id);
  // Moves the agent to the surface point nearest `pos` at once (its path is planned again).
  absl::Status Teleport(AgentId id, Vec3 pos);

  // Moves the crowd to a new version of its map (an obstacle layer changed): agents whose
  // corridor holds polygons the new map no longer accepts re-plan, and an agent whose polygon
  // is gone is moved to the nearest point of the new map.
  absl::Status SetMap(std::shared_ptr<const NavMap> map);

  // Advances every agent by `dt` seconds (0 < dt <= 1). `runner` runs the chunks.
  absl::Status Step(float dt, ChunkRunner& runner);

  // Agents whose position, velocity or state differ from what the Step before reported (new
  // and teleported agents included), as of the last Step, in id order.
  std::span<const AgentUpdate> changed() const;
  // Every agent, in id order.
  void Snapshot(std::vector<AgentUpdate>* out) const;
  // One agent, or nullopt for an unknown id.
  std::optional<AgentUpdate> FindAgent(AgentId id) const;
  uint32_t agent_count() const;
  const TickStats& last_tick() const;
  const CrowdOptions& options() const;
  const NavMap& map() const;

 private:
  explicit Crowd(std::unique_ptr<internal::CrowdState> state);
  std::unique_ptr<internal::CrowdState> state_;
};

}  // namespace waymesh::crowd
