// Bad input to the crowd is refused with an error that says what and where, and leaves the
// crowd as it was.

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "crowd_test_support.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "waymesh/core/crowd/crowd.h"
#include "waymesh/crowd_scenario/crowd_scenes.h"

namespace waymesh {
namespace {

using crowd::AgentParams;
using crowd::Crowd;
using crowd::CrowdOptions;
using ::testing::HasSubstr;

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::shared_ptr<const NavMap> Square() {
  static const std::shared_ptr<const NavMap> map = testing::ArenaMap(OpenSquareArena(20));
  return map;
}

Crowd Make(const CrowdOptions& options = {}) {
  absl::StatusOr<Crowd> crowd = Crowd::Create(Square(), options);
  EXPECT_TRUE(crowd.ok()) << crowd.status();
  return *std::move(crowd);
}

TEST(CrowdInputTest, BadOptionsNameTheOption) {
  struct Case {
    CrowdOptions options;
    const char* name;
  };
  std::vector<Case> cases;
  auto add = [&](const char* name, auto edit) {
    CrowdOptions o;
    edit(o);
    cases.push_back({o, name});
  };
  add("time_horizon", [](CrowdOptions& o) { o.time_horizon = 0; });
  add("wall_time_horizon", [](CrowdOptions& o) { o.wall_time_horizon = kNaN; });
  add("neighbour_range", [](CrowdOptions& o) { o.neighbour_range = -1; });
  add("max_neighbours", [](CrowdOptions& o) { o.max_neighbours = 33; });
  add("separation_speed", [](CrowdOptions& o) { o.separation_speed = -0.5f; });
  add("orca_margin", [](CrowdOptions& o) { o.orca_margin = INFINITY; });
  add("circling_step_deg", [](CrowdOptions& o) { o.circling_step_deg = 120; });
  add("arrive_distance", [](CrowdOptions& o) { o.arrive_distance = 0; });
  add("max_agents", [](CrowdOptions& o) { o.max_agents = 0; });
  add("chunk_agents", [](CrowdOptions& o) { o.chunk_agents = 0; });
  add("max_path_nodes", [](CrowdOptions& o) { o.max_path_nodes = 0; });
  add("half_extents", [](CrowdOptions& o) { o.half_extents = {1, -1, 1}; });
  for (const Case& c : cases) {
    absl::StatusOr<Crowd> crowd = Crowd::Create(Square(), c.options);
    ASSERT_FALSE(crowd.ok()) << c.name;
    EXPECT_EQ(crowd.status().code(), absl::StatusCode::kInvalidArgument) << c.name;
    EXPECT_THAT(std::string(crowd.status().message()), HasSubstr(c.name));
  }
  EXPECT_FALSE(Crowd::Create(nullptr).ok());
}

TEST(CrowdInputTest, BadAgentsAreRefusedAndNamed) {
  Crowd crowd = Make();
  ASSERT_TRUE(crowd.AddAgent(7, {0, 0, 0}, AgentParams()).ok());
  absl::Status taken = crowd.AddAgent(7, {1, 0, 1}, AgentParams());
  EXPECT_EQ(taken.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(taken.message()), HasSubstr("7"));
  AgentParams bad;
  bad.radius = 0;
  absl::Status radius = crowd.AddAgent(8, {1, 0, 1}, bad);
  EXPECT_THAT(std::string(radius.message()), HasSubstr("agent 8: radius"));
  bad = AgentParams();
  bad.max_speed = kNaN;
  EXPECT_THAT(std::string(crowd.AddAgent(8, {1, 0, 1}, bad).message()), HasSubstr("max_speed"));
  bad = AgentParams();
  bad.max_accel = -1;
  EXPECT_THAT(std::string(crowd.AddAgent(8, {1, 0, 1}, bad).message()), HasSubstr("max_accel"));
  EXPECT_EQ(crowd.AddAgent(8, {kNaN, 0, 0}, AgentParams()).code(),
            absl::StatusCode::kInvalidArgument);
  absl::Status off = crowd.AddAgent(8, {100, 0, 100}, AgentParams());
  EXPECT_EQ(off.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(off.message()), HasSubstr("agent 8"));
  EXPECT_EQ(crowd.agent_count(), 1u);
}

TEST(CrowdInputTest, AFullCrowdSaysSo) {
  CrowdOptions options;
  options.max_agents = 2;
  Crowd crowd = Make(options);
  ASSERT_TRUE(crowd.AddAgent(1, {0, 0, 0}, AgentParams()).ok());
  ASSERT_TRUE(crowd.AddAgent(2, {2, 0, 0}, AgentParams()).ok());
  absl::Status full = crowd.AddAgent(3, {4, 0, 0}, AgentParams());
  EXPECT_EQ(full.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(full.message()), HasSubstr("max_agents = 2"));
}

TEST(CrowdInputTest, CommandsOnUnknownAgentsAreNotFound) {
  Crowd crowd = Make();
  ASSERT_TRUE(crowd.AddAgent(1, {0, 0, 0}, AgentParams()).ok());
  EXPECT_EQ(crowd.RemoveAgent(9).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(crowd.SetTarget(9, {1, 0, 1}).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(crowd.ChaseAgent(1, 9).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(crowd.Follow(9, 1, {}).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(crowd.Teleport(9, {}).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(crowd.ClearTarget(9).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(crowd.SetParams(9, AgentParams()).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(crowd.ChaseAgent(1, 1).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(crowd.Follow(1, 1, {}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(crowd.SetTarget(1, {0, kNaN, 0}).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(crowd.Teleport(1, {100, 0, 100}).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_FALSE(crowd.FindAgent(9).has_value());
}

TEST(CrowdInputTest, ATargetOffTheMeshIsNoPathNotAnError) {
  Crowd crowd = Make();
  ASSERT_TRUE(crowd.AddAgent(1, {0, 0, 0}, AgentParams()).ok());
  ASSERT_TRUE(crowd.SetTarget(1, {100, 0, 100}).ok());
  crowd::SerialChunkRunner runner;
  ASSERT_TRUE(crowd.Step(0.05f, runner).ok());
  EXPECT_EQ(crowd.FindAgent(1)->state, crowd::AgentState::kNoPath);
  EXPECT_EQ(crowd.FindAgent(1)->pos, (Vec3{0, 0, 0}));
}

TEST(CrowdInputTest, BadTicksAreRefused) {
  Crowd crowd = Make();
  crowd::SerialChunkRunner runner;
  for (float dt : {0.0f, -0.05f, kNaN, 2.0f}) {
    absl::Status s = crowd.Step(dt, runner);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << dt;
    EXPECT_THAT(std::string(s.message()), HasSubstr("dt"));
  }
}

TEST(CrowdInputTest, RemovingAChasedAgentLeavesItsChasersIdle) {
  Crowd crowd = Make();
  ASSERT_TRUE(crowd.AddAgent(1, {0, 0, 0}, AgentParams()).ok());
  ASSERT_TRUE(crowd.AddAgent(2, {5, 0, 0}, AgentParams()).ok());
  ASSERT_TRUE(crowd.AddAgent(3, {-5, 0, 0}, AgentParams()).ok());
  ASSERT_TRUE(crowd.ChaseAgent(2, 1).ok());
  ASSERT_TRUE(crowd.Follow(3, 1, {0, 0, -2}).ok());
  crowd::SerialChunkRunner runner;
  ASSERT_TRUE(crowd.Step(0.05f, runner).ok());
  ASSERT_TRUE(crowd.RemoveAgent(1).ok());
  ASSERT_TRUE(crowd.Step(0.05f, runner).ok());
  EXPECT_EQ(crowd.FindAgent(2)->state, crowd::AgentState::kIdle);
  EXPECT_EQ(crowd.FindAgent(3)->state, crowd::AgentState::kIdle);
  EXPECT_EQ(crowd.agent_count(), 2u);
}

}  // namespace
}  // namespace waymesh
