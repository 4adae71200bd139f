#pragma once
// One agent's whole state inside the crowd, and the read-only snapshot its neighbours see
// during a tick. A tick's chunks each write only their own agents; everything they read of
// other agents comes from the snapshot taken before the chunks start.

#include <array>
#include <cmath>
#include <cstdint>
#include <vector>

#include "crowd/vec2.h"
#include "waymesh/core/crowd/crowd.h"
#include "waymesh/core/path_result.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::crowd::internal {

// Wall segments kept per agent (the nearest ones within its wall range).
inline constexpr uint32_t kMaxWalls = 32;
// Most neighbours one agent considers (CrowdOptions::max_neighbours is at most this).
inline constexpr uint32_t kMaxNeighbours = 32;
// No agent slot.
inline constexpr uint32_t kNoSlot = 0xFFFFFFFFu;

// A wall edge in plan view, walkable side on the left (Det2(b - a, p - a) > 0).
struct WallXZ {
  V2 a, b;
};

enum class GoalKind : uint8_t {
  kNone,
  kPoint,   // a target point (shared points make a surround ring)
  kChase,   // another agent (a surround ring round it)
  kFollow,  // a slot at an offset behind a leader
};

// What neighbours and group logic read of an agent during a tick.
struct AgentSnap {
  V2 pos;
  V2 vel;
  float y = 0;
  float radius = 0;
  float facing = 0;  // heading (radians from +x towards +z)
  PolyRef poly;
  AgentId id = 0;
  bool avoids = true;   // false while crossing an off-mesh link: nobody sees it
  V2 way;               // unit direction it wanted to walk last tick (zero: none)
  bool chases = false;  // it chases agent `chased`
  AgentId chased = 0;
};

// Flags a tick sets on an agent for the merged tick statistics.
enum TickFlag : uint8_t {
  kTickPlanned = 1,
  kTickWallsRead = 2,
  kTickWantsPlan = 4,
};

struct Agent {
  AgentId id = 0;
  AgentParams params;

  // --- Goal ---
  GoalKind goal_kind = GoalKind::kNone;
  Vec3 target;                    // kPoint: the requested point
  AgentId other = 0;              // kChase: the chased agent; kFollow: the leader
  uint32_t other_slot = kNoSlot;  // slot of `other` (resolved before each tick)
  Vec3 offset;                    // kFollow: x right, z forward in the leader's frame
  int32_t group = -1;             // surround group, or -1
  bool has_slot = false;          // the surround group gave it a ring slot (slot_goal)
  SurfacePoint slot_goal;
  SurfacePoint target_point;  // kPoint: `target` on the mesh (when target_on_mesh)
  bool target_on_mesh = false;
  bool has_goal = false;  // `goal` is valid
  SurfacePoint goal;      // where it heads this tick

  // --- Where it is ---
  SurfacePoint at;
  V2 vel;
  V2 tick_start;              // where the current tick found it
  V2 way;                     // unit direction it wants to walk (towards its next corner), or zero
  float facing = 1.5707964f;  // +z: Unity's forward
  AgentState state = AgentState::kIdle;

  // --- Path ---
  PathResult path;
  std::vector<uint32_t> waypoint_step;  // corridor index of each waypoint's polygon
  std::vector<float> remaining;         // path length from each waypoint to the end
  uint32_t waypoint = 0;                // the waypoint it steers to
  uint32_t corridor_pos = 0;            // corridor index of its polygon
  bool has_path = false;
  bool off_corridor = false;
  Vec3 planned_goal;        // the goal the path was planned to
  bool force_plan = false;  // a command changed the goal or the position: plan next tick
  bool want_plan = false;   // the agent asks for a re-plan (respecting the replan interval)
  bool plan_now = false;    // granted a plan this tick
  float since_plan = 1e9f;  // seconds since the last plan

  // --- Progress ---
  float window_start_remaining = 0;  // remaining path length when the progress window began
  float window_time = 0;
  uint32_t failed_windows = 0;

  // --- Circling ---
  bool detouring = false;

  // --- Off-mesh link ---
  Vec3 link_from, link_to;
  PolyRef link_poly;  // the polygon it lands on
  float link_t = 0;   // fraction of the link crossed

  // --- Neighbours: the slots of the nearest agents this tick (overlaps after the move are
  // looked for among them) ---
  std::array<uint32_t, kMaxNeighbours> near;
  uint32_t near_count = 0;

  // --- Walls (plan view) ---
  std::array<WallXZ, kMaxWalls> walls;
  uint32_t wall_count = 0;
  V2 wall_centre;
  bool walls_valid = false;

  // --- Reporting ---
  AgentUpdate reported;  // what the last Step reported
  bool reported_once = false;
  uint8_t tick_flags = 0;
};

// The heading follows the velocity only above this speed (m/s): standing agents keep theirs.
inline constexpr float kFacingSpeed = 0.05f;

// The agent's velocity from where the tick found it to where it is now, and its heading: the
// way it walks, while it walks (an agent that stands and is nudged by others keeps its heading,
// so a formation does not turn round a leader that is only made way for).
inline void SetVelocity(float dt, Agent& a) {
  a.vel = (XZ(a.at.pos) - a.tick_start) * (1.0f / dt);
  const bool walking = a.state == AgentState::kMoving || a.state == AgentState::kStuck;
  if (walking && LengthSq2(a.vel) > kFacingSpeed * kFacingSpeed) {
    a.facing = std::atan2(a.vel.z, a.vel.x);
  }
}

// The agent as the caller sees it.
inline AgentUpdate Reported(const Agent& a) {
  return AgentUpdate{a.id,    a.at.pos,  Vec3{a.vel.x, 0.0f, a.vel.z},
                     a.state, a.at.poly, a.params.radius};
}

}  // namespace waymesh::crowd::internal
