#pragma once
// Synthetic crowd scenes for tests and benchmarks: flat arenas (an open square, a corridor, two
// rooms joined by a door) as source meshes for the repair pipeline, the classic crowd
// scenarios on them, and agents wandering a map along random routes. Deterministic.

#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/crowd_scenario/crowd_scenario.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh {

// How the agents of a scene are built.
struct SceneAgents {
  float radius = 0.5f;
  float max_speed = 3.0f;
  float max_accel = 8.0f;
  double tick_hz = 20;
  double duration_s = 60;
};

// A square of side `side` metres centred on the origin, at y = 0.
SourceMesh OpenSquareArena(float side);
// A corridor along x, `length` by `width` metres, centred on the origin.
SourceMesh CorridorArena(float length, float width);
// Two square rooms of side `room` (x < 0 and x > 0) separated by a wall `wall` metres thick
// along x = 0, joined by a door `door` metres wide at z = 0.
SourceMesh DoorArena(float room, float door, float wall);

// `count` agents evenly spaced on a circle of `radius` round the origin, each sent to the point
// opposite (the classic ORCA test). Needs OpenSquareArena(2 * radius + margin).
CrowdScenario CircleSwapScenario(int count, float radius, const SceneAgents& agents);
// Two groups of `per_group` agents, `lanes` abreast in the middle of the corridor, starting at
// either end of CorridorArena(length, width) and walking through each other to the other end
// (each group keeps its order, so its front row ends furthest).
CrowdScenario CorridorCrossingScenario(int per_group, int lanes, float length,
                                       const SceneAgents& agents);
// `count` agents packed in the left room of DoorArena(room, door, wall), each sent to the same
// place in the right room: the whole crowd squeezes through the door.
CrowdScenario DoorScenario(int count, float room, float wall, const SceneAgents& agents);
// `count` agents at random points of `map`, each walking a route of `legs` random points, each
// within `leg_distance` (metres) of the one before and reachable from it without leaving that
// disc (the wandering townsfolk of an MMO city). Agents start at least 2 radii apart.
absl::StatusOr<CrowdScenario> WanderScenario(std::shared_ptr<const NavMap> map, int count, int legs,
                                             float leg_distance, uint64_t seed,
                                             const SceneAgents& agents);

}  // namespace waymesh
