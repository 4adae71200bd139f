#include "waymesh/crowd_scenario/crowd_scenes.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <optional>
#include <random>
#include <vector>

#include "absl/strings/str_cat.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {
namespace {

// Gap (metres) between neighbouring agents of a packed start formation, and between a
// formation and the walls.
constexpr float kFormationGap = 0.3f;
constexpr float kWallMargin = 1.0f;
// Random draws per wandering agent before the scene gives up on the map.
constexpr int kWanderTries = 200;

void AddRect(SourceMesh& mesh, float x0, float z0, float x1, float z1) {
  const uint32_t base = uint32_t(mesh.vertices.size());
  mesh.vertices.push_back({x0, 0, z0});
  mesh.vertices.push_back({x1, 0, z0});
  mesh.vertices.push_back({x1, 0, z1});
  mesh.vertices.push_back({x0, 0, z1});
  mesh.AddPolygon({base, base + 1, base + 2, base + 3});
}

SourceMesh Arena(const char* name) {
  SourceMesh mesh;
  mesh.origin = name;
  mesh.scene_name = name;
  return mesh;
}

ScenarioAgent MakeAgent(crowd::AgentId id, Vec3 pos, Vec3 target, const SceneAgents& a) {
  ScenarioAgent out;
  out.id = id;
  out.position = pos;
  out.route = {target};
  out.radius = a.radius;
  out.max_speed = a.max_speed;
  out.max_accel = a.max_accel;
  return out;
}

CrowdScenario Empty(const SceneAgents& a) {
  CrowdScenario s;
  s.tick_hz = a.tick_hz;
  s.duration_s = a.duration_s;
  return s;
}

}  // namespace

SourceMesh OpenSquareArena(float side) {
  SourceMesh mesh = Arena("open-square");
  AddRect(mesh, -side / 2, -side / 2, side / 2, side / 2);
  return mesh;
}

SourceMesh CorridorArena(float length, float width) {
  SourceMesh mesh = Arena("corridor");
  AddRect(mesh, -length / 2, -width / 2, length / 2, width / 2);
  return mesh;
}

SourceMesh DoorArena(float room, float door, float wall) {
  SourceMesh mesh = Arena("door");
  const float h = wall / 2;
  AddRect(mesh, -h - room, -room / 2, -h, room / 2);
  AddRect(mesh, -h, -door / 2, h, door / 2);
  AddRect(mesh, h, -room / 2, h + room, room / 2);
  return mesh;
}

CrowdScenario CircleSwapScenario(int count, float radius, const SceneAgents& agents) {
  CrowdScenario s = Empty(agents);
  for (int i = 0; i < count; ++i) {
    const double angle = 2 * std::numbers::pi * i / count;
    const Vec3 p{float(radius * std::cos(angle)), 0, float(radius * std::sin(angle))};
    s.agents.push_back(MakeAgent(crowd::AgentId(i + 1), p, p * -1.0f, agents));
  }
  return s;
}

CrowdScenario CorridorCrossingScenario(int per_group, int lanes, float length,
                                       const SceneAgents& agents) {
  CrowdScenario s = Empty(agents);
  const float spacing = 2 * agents.radius + kFormationGap;
  const int across = std::max(1, lanes);
  const float lane0 = -float(across - 1) * spacing / 2;
  const float end = length / 2 - kWallMargin - agents.radius;
  const float depth = float((per_group + across - 1) / across - 1) * spacing;  // first to last row
  crowd::AgentId id = 1;
  for (int group = 0; group < 2; ++group) {
    const float dir = group == 0 ? 1.0f : -1.0f;  // group 0 walks towards +x
    for (int i = 0; i < per_group; ++i) {
      const float row = float(i / across) * spacing;
      const float z = lane0 + float(i % across) * spacing;
      // The block walks as it stands: its front row ends at the far end.
      const Vec3 start{-dir * (end - row), 0, z};
      const Vec3 goal{start.x + dir * (2 * end - depth), 0, z};
      s.agents.push_back(MakeAgent(id++, start, goal, agents));
    }
  }
  return s;
}

CrowdScenario DoorScenario(int count, float room, float wall, const SceneAgents& agents) {
  CrowdScenario s = Empty(agents);
  const float spacing = 2 * agents.radius + kFormationGap;
  const int across = std::max(1, int((room - 2 * kWallMargin) / spacing));
  const float centre_x = -wall / 2 - room / 2;
  const int rows = (count + across - 1) / across;
  for (int i = 0; i < count; ++i) {
    const float x = centre_x + (float(i / across) - float(rows - 1) / 2) * spacing;
    const float z = (float(i % across) - float(std::min(count, across) - 1) / 2) * spacing;
    const Vec3 start{x, 0, z};
    // The block walks as it stands, into the same place of the other room.
    s.agents.push_back(
        MakeAgent(crowd::AgentId(i + 1), start, Vec3{x + room + wall, 0, z}, agents));
  }
  return s;
}

absl::StatusOr<CrowdScenario> WanderScenario(std::shared_ptr<const NavMap> map, int count, int legs,
                                             float leg_distance, uint64_t seed,
                                             const SceneAgents& agents) {
  CrowdScenario s = Empty(agents);
  NavQuery query(std::move(map));
  const QueryFilter filter;
  std::mt19937_64 rng(seed);
  // Starts already placed: a new one keeps 2 radii (plan view) from each (a scan: scenes are
  // built once, and 10 000 agents take a fraction of a second).
  const float apart = 2 * agents.radius;
  std::vector<Vec3> placed;
  auto too_close = [&](Vec3 p) {
    return std::any_of(placed.begin(), placed.end(), [&](Vec3 q) {
      return std::fabs(p.y - q.y) < 2.0f && DistanceXZ(p, q) < apart;
    });
  };
  for (int i = 0; i < count; ++i) {
    std::optional<SurfacePoint> start;
    for (int t = 0; t < kWanderTries && !start; ++t) {
      absl::StatusOr<std::optional<SurfacePoint>> p = query.RandomPoint(filter, rng);
      if (!p.ok()) return p.status();
      if (!p->has_value()) return absl::FailedPreconditionError("the map has no walkable surface");
      if (!too_close((*p)->pos)) start = **p;
    }
    if (!start) return absl::FailedPreconditionError("no room for another wandering agent");
    ScenarioAgent a = MakeAgent(crowd::AgentId(i + 1), start->pos, start->pos, agents);
    a.route.clear();
    SurfacePoint from = *start;
    for (int leg = 0; leg < legs; ++leg) {
      absl::StatusOr<std::optional<SurfacePoint>> next =
          query.RandomPointInCircle(from, leg_distance, filter, rng);
      if (!next.ok()) return next.status();
      if (!next->has_value()) break;
      a.route.push_back((*next)->pos);
      from = **next;
    }
    placed.push_back(start->pos);
    s.agents.push_back(std::move(a));
  }
  return s;
}

}  // namespace waymesh
