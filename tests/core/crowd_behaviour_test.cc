// Crowd behaviours one by one, through the public Crowd API: surround rings, formations,
// circling (the MMO paper's head-on corridor and its crowd of 30 spawned on top of each other),
// repulsion in both modes, map versions (SetMap), and off-mesh links.

#include <algorithm>
#include <cmath>
#include <memory>
#include <numbers>
#include <set>
#include <vector>

#include "crowd_test_support.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "waymesh/core/crowd/crowd.h"
#include "waymesh/crowd_scenario/crowd_scenes.h"

namespace waymesh {
namespace {

using crowd::AgentParams;
using crowd::AgentState;
using crowd::AgentUpdate;
using crowd::AvoidanceMode;
using crowd::Crowd;
using crowd::CrowdOptions;

constexpr float kDt = 0.05f;  // 20 Hz
// Surrounding agents stand within this distance (metres) of what they surround: on its two
// innermost rings (agents of radius 0.5 m).
constexpr float kRoundIt = 4.5f;

Crowd MakeCrowd(std::shared_ptr<const NavMap> map, AvoidanceMode mode = AvoidanceMode::kOrca) {
  CrowdOptions options;
  options.mode = mode;
  absl::StatusOr<Crowd> crowd = Crowd::Create(std::move(map), options);
  EXPECT_TRUE(crowd.ok()) << crowd.status();
  return *std::move(crowd);
}

void RunFor(Crowd& crowd, float seconds) {
  crowd::SerialChunkRunner runner;
  for (int i = 0; i < int(std::lround(seconds / kDt)); ++i) {
    ASSERT_TRUE(crowd.Step(kDt, runner).ok());
  }
}

std::vector<AgentUpdate> All(const Crowd& crowd) {
  std::vector<AgentUpdate> out;
  crowd.Snapshot(&out);
  return out;
}

// Deepest overlap of any two agents of `agents` (all of radius `r`), in metres.
float WorstOverlap(const std::vector<AgentUpdate>& agents, float r) {
  float worst = -INFINITY;
  for (size_t i = 0; i < agents.size(); ++i) {
    for (size_t j = i + 1; j < agents.size(); ++j) {
      worst = std::max(worst, 2 * r - DistanceXZ(agents[i].pos, agents[j].pos));
    }
  }
  return worst;
}

TEST(CrowdSurroundTest, ChasersSpreadRoundTheirTargetInsteadOfStacking) {
  Crowd crowd = MakeCrowd(testing::ArenaMap(OpenSquareArena(30)));
  const AgentParams params;
  ASSERT_TRUE(crowd.AddAgent(100, {0, 0, 0}, params).ok());  // the target: stands
  // Eight chasers, all coming from the same side.
  for (crowd::AgentId id = 1; id <= 8; ++id) {
    ASSERT_TRUE(
        crowd.AddAgent(id, {10.0f + float(id % 3), 0, -6.0f + 1.5f * float(id)}, params).ok());
    ASSERT_TRUE(crowd.ChaseAgent(id, 100).ok());
  }
  RunFor(crowd, 25);
  const Vec3 target = crowd.FindAgent(100)->pos;
  std::vector<AgentUpdate> chasers = All(crowd);
  chasers.erase(std::remove_if(chasers.begin(), chasers.end(),
                               [](const AgentUpdate& a) { return a.id == 100; }),
                chasers.end());
  std::vector<float> angles;
  for (const AgentUpdate& c : chasers) {
    EXPECT_EQ(c.state, AgentState::kArrived) << "chaser " << c.id;
    EXPECT_LT(DistanceXZ(c.pos, target), kRoundIt) << "chaser " << c.id << " is not round it";
    angles.push_back(std::atan2(c.pos.z - target.z, c.pos.x - target.x));
  }
  // Nobody stacked: every pair is apart (10 % overlap at most).
  EXPECT_LE(WorstOverlap(chasers, params.radius), 0.1f * params.radius);
  // They surround it: no half-plane through the target holds them all (the largest angular
  // gap between neighbouring chasers is below 180°).
  std::sort(angles.begin(), angles.end());
  float gap = angles.front() + 2 * std::numbers::pi_v<float> - angles.back();
  for (size_t i = 1; i < angles.size(); ++i) gap = std::max(gap, angles[i] - angles[i - 1]);
  EXPECT_LT(gap, std::numbers::pi_v<float>);
}

TEST(CrowdSurroundTest, AgentsSentToTheSamePointTakeDistinctSlots) {
  Crowd crowd = MakeCrowd(testing::ArenaMap(OpenSquareArena(30)));
  const AgentParams params;
  for (crowd::AgentId id = 1; id <= 6; ++id) {
    ASSERT_TRUE(crowd.AddAgent(id, {-10, 0, -7.5f + 2.5f * float(id)}, params).ok());
    ASSERT_TRUE(crowd.SetTarget(id, {5, 0, 0}).ok());
  }
  RunFor(crowd, 25);
  const std::vector<AgentUpdate> agents = All(crowd);
  for (const AgentUpdate& a : agents) {
    EXPECT_EQ(a.state, AgentState::kArrived) << "agent " << a.id;
    EXPECT_LT(DistanceXZ(a.pos, {5, 0, 0}), kRoundIt) << "agent " << a.id;
  }
  EXPECT_LE(WorstOverlap(agents, params.radius), 0.1f * params.radius);
}

TEST(CrowdFormationTest, FollowersKeepTheirOffsetsBehindTheLeader) {
  Crowd crowd = MakeCrowd(testing::ArenaMap(OpenSquareArena(40)));
  AgentParams leader_params;
  leader_params.max_speed = 1.5f;  // followers (3.5 m/s) can catch up
  ASSERT_TRUE(crowd.AddAgent(1, {-15, 0, 0}, leader_params).ok());
  const std::vector<Vec3> offsets{{-1.5f, 0, -1.5f}, {1.5f, 0, -1.5f}, {0, 0, -3}};
  for (size_t i = 0; i < offsets.size(); ++i) {
    const crowd::AgentId id = crowd::AgentId(10 + i);
    ASSERT_TRUE(crowd.AddAgent(id, {-18.0f + float(i), 0, 3}, AgentParams()).ok());
    ASSERT_TRUE(crowd.Follow(id, 1, offsets[i]).ok());
  }
  ASSERT_TRUE(crowd.SetTarget(1, {15, 0, 0}).ok());
  RunFor(crowd, 30);  // 30 m at 1.5 m/s, then time to settle
  const AgentUpdate leader = *crowd.FindAgent(1);
  EXPECT_EQ(leader.state, AgentState::kArrived);
  // The leader walked +x: forward is +x, right is -z (Y up, left-handed).
  for (size_t i = 0; i < offsets.size(); ++i) {
    const AgentUpdate f = *crowd.FindAgent(crowd::AgentId(10 + i));
    const Vec3 slot{leader.pos.x + offsets[i].z, 0, leader.pos.z - offsets[i].x};
    EXPECT_LT(DistanceXZ(f.pos, slot), 0.5f)
        << "follower " << f.id << " at (" << f.pos.x << ", " << f.pos.z << "), slot (" << slot.x
        << ", " << slot.z << ")";
  }
}

TEST(CrowdCirclingTest, HeadOnInACorridorPassWithoutOverlapping) {
  const std::shared_ptr<const NavMap> map = testing::ArenaMap(CorridorArena(20, 3));
  Crowd crowd = MakeCrowd(map, AvoidanceMode::kCircling);
  const AgentParams params;
  ASSERT_TRUE(crowd.AddAgent(1, {-8, 0, 0}, params).ok());
  ASSERT_TRUE(crowd.AddAgent(2, {8, 0, 0}, params).ok());
  ASSERT_TRUE(crowd.SetTarget(1, {8, 0, 0}).ok());
  ASSERT_TRUE(crowd.SetTarget(2, {-8, 0, 0}).ok());
  testing::CrowdJudge judge(map);
  crowd::SerialChunkRunner runner;
  bool passed = false;
  for (int tick = 0; tick < 300; ++tick) {
    ASSERT_TRUE(crowd.Step(kDt, runner).ok());
    const std::vector<AgentUpdate> agents = All(crowd);
    judge.Check(agents, {params.radius, params.radius}, tick);
    if (::testing::Test::HasFailure()) return;
    passed |= agents[0].pos.x > agents[1].pos.x;
  }
  EXPECT_TRUE(passed);
  EXPECT_EQ(crowd.FindAgent(1)->state, AgentState::kArrived);
  EXPECT_EQ(crowd.FindAgent(2)->state, AgentState::kArrived);
}

// 30 agents spawned on top of each other 1 m from a wall separate within 5 s, and nobody is
// pushed into the wall (the paper's crowd case; repulsion runs in both modes).
void SeparateSpawnedCrowd(AvoidanceMode mode) {
  const std::shared_ptr<const NavMap> map = testing::ArenaMap(OpenSquareArena(20));
  Crowd crowd = MakeCrowd(map, mode);
  const AgentParams params;
  for (crowd::AgentId id = 1; id <= 30; ++id) {
    // A tight spiral round (8, 0): everyone overlaps several others.
    const float a = float(id) * 2.4f, r = 0.05f * float(id);
    ASSERT_TRUE(crowd.AddAgent(id, {8.5f + r * std::cos(a), 0, r * std::sin(a)}, params).ok());
  }
  EXPECT_GT(WorstOverlap(All(crowd), params.radius), 0.8f);  // really on top of each other
  testing::CrowdJudge walls_only(map);
  crowd::SerialChunkRunner runner;
  for (int tick = 0; tick < 100; ++tick) {
    ASSERT_TRUE(crowd.Step(kDt, runner).ok());
    for (const AgentUpdate& a : All(crowd)) {
      for (const WallSegment& w : walls_only.walls) {
        ASSERT_GE(testing::SegmentDistance(w.a, w.b, a.pos),
                  params.radius - testing::kWallClearanceSlack)
            << "agent " << a.id << " pushed into a wall at tick " << tick;
      }
    }
  }
  EXPECT_LE(WorstOverlap(All(crowd), params.radius), 0.1f * params.radius);
}

TEST(CrowdCirclingTest, ThirtySpawnedOverlappingSeparateWithinFiveSeconds) {
  SeparateSpawnedCrowd(AvoidanceMode::kCircling);
}

TEST(CrowdRepulsionTest, ThirtySpawnedOverlappingSeparateUnderOrcaToo) {
  SeparateSpawnedCrowd(AvoidanceMode::kOrca);
}

// The same map with every tile's generation changed: what an obstacle layer update publishes.
std::shared_ptr<const NavMap> NewVersion(const std::shared_ptr<const NavMap>& map,
                                         uint32_t generation) {
  std::vector<TileView> tiles(map->tiles().begin(), map->tiles().end());
  return std::make_shared<const NavMap>(map->info(), std::move(tiles), map, generation);
}

TEST(CrowdMapVersionTest, AgentsReplanOnANewVersionAndStillArrive) {
  const std::shared_ptr<const NavMap> map = testing::ArenaMap(DoorArena(10, 2, 0.5f));
  Crowd crowd = MakeCrowd(map);
  ASSERT_TRUE(crowd.AddAgent(1, {-5, 0, 3}, AgentParams()).ok());
  ASSERT_TRUE(crowd.SetTarget(1, {5, 0, -3}).ok());
  RunFor(crowd, 2);
  const PolyRef before = crowd.FindAgent(1)->poly;
  ASSERT_TRUE(crowd.SetMap(NewVersion(map, NextGeneration(kFirstGeneration))).ok());
  crowd::SerialChunkRunner runner;
  ASSERT_TRUE(crowd.Step(kDt, runner).ok());
  EXPECT_EQ(crowd.last_tick().replans, 1u);  // its corridor held polygons of the old version
  EXPECT_NE(crowd.FindAgent(1)->poly.generation(), before.generation());
  RunFor(crowd, 15);
  EXPECT_EQ(crowd.FindAgent(1)->state, AgentState::kArrived);
}

// CrowdOptions::query reaches the crowd's own searches (a server passes its flags through it):
// a node pool of one polygon cannot find the way through the door that the default one finds.
TEST(CrowdOptionsTest, QueryOptionsReachTheCrowdsSearches) {
  const std::shared_ptr<const NavMap> map = testing::ArenaMap(DoorArena(10, 2, 0.5f));
  for (const uint32_t pool : {1u, NavQueryOptions().max_nodes}) {
    CrowdOptions options;
    options.query.max_nodes = pool;
    absl::StatusOr<Crowd> crowd = Crowd::Create(map, options);
    ASSERT_TRUE(crowd.ok()) << crowd.status();
    ASSERT_TRUE(crowd->AddAgent(1, {-5, 0, 3}, AgentParams()).ok());
    ASSERT_TRUE(crowd->SetTarget(1, {5, 0, -3}).ok());
    RunFor(*crowd, 15);
    const AgentUpdate agent = *crowd->FindAgent(1);
    if (pool == 1) {
      EXPECT_NE(agent.state, AgentState::kArrived);
      EXPECT_LT(agent.pos.x, 0.0f);  // still in the room it started in
    } else {
      EXPECT_EQ(agent.state, AgentState::kArrived);
    }
  }
}

TEST(CrowdMapVersionTest, AnAgentInsideABlockedAreaMovesToTheNearestFreePoint) {
  const std::shared_ptr<const NavMap> open = testing::ArenaMap(OpenSquareArena(20));
  // The next version has a 4 x 4 m block in the middle (four rectangles round it).
  SourceMesh blocked;
  auto rect = [&](float x0, float z0, float x1, float z1) {
    const uint32_t b = uint32_t(blocked.vertices.size());
    for (Vec3 v : {Vec3{x0, 0, z0}, Vec3{x1, 0, z0}, Vec3{x1, 0, z1}, Vec3{x0, 0, z1}}) {
      blocked.vertices.push_back(v);
    }
    blocked.AddPolygon({b, b + 1, b + 2, b + 3});
  };
  rect(-10, -10, 10, -2);
  rect(-10, 2, 10, 10);
  rect(-10, -2, -2, 2);
  rect(2, -2, 10, 2);
  const std::shared_ptr<const NavMap> with_block =
      NewVersion(testing::ArenaMap(blocked), NextGeneration(kFirstGeneration));
  Crowd crowd = MakeCrowd(open);
  ASSERT_TRUE(crowd.AddAgent(1, {1.2f, 0, 0.3f}, AgentParams()).ok());  // where the block comes
  ASSERT_TRUE(crowd.SetMap(with_block).ok());
  const AgentUpdate moved = *crowd.FindAgent(1);
  EXPECT_NEAR(moved.pos.x, 2.0f, 1e-3f);  // the nearest free point is on the block's east side
  EXPECT_NEAR(moved.pos.z, 0.3f, 1e-3f);
  NavQuery q(with_block);
  EXPECT_TRUE(q.IsValid(moved.poly));
  // From there it walks on: off the block's edge by its radius within a few ticks.
  RunFor(crowd, 1);
  EXPECT_GE(crowd.FindAgent(1)->pos.x, 2.0f + 0.5f - testing::kWallClearanceSlack);
}

TEST(CrowdOffMeshLinkTest, AnAgentClimbsTheLadderToTheRooftop) {
  const testing::DemoTown& town = testing::Town();
  Crowd crowd = MakeCrowd(town.map);
  AgentParams params;
  params.radius = 0.3f;
  const Vec3 foot = testing::ProbeAt(town, kProbeLadderFoot);
  const Vec3 roof = testing::ProbeAt(town, kProbeRooftop);
  ASSERT_TRUE(crowd.AddAgent(1, foot, params).ok());
  ASSERT_TRUE(crowd.SetTarget(1, roof).ok());
  crowd::SerialChunkRunner runner;
  bool climbed = false;
  for (int tick = 0; tick < 1200 && crowd.FindAgent(1)->state != AgentState::kArrived; ++tick) {
    ASSERT_TRUE(crowd.Step(kDt, runner).ok());
    climbed |= crowd.FindAgent(1)->state == AgentState::kOnLink;
  }
  EXPECT_TRUE(climbed);
  EXPECT_EQ(crowd.FindAgent(1)->state, AgentState::kArrived);
  EXPECT_LT(DistanceXZ(crowd.FindAgent(1)->pos, roof), 0.3f);
  EXPECT_NEAR(crowd.FindAgent(1)->pos.y, roof.y, 0.5f);
}

}  // namespace
}  // namespace waymesh
