// Crowd scenario files (docs/crowd.md): every field read, the writer read back to the same
// scenario, and bad files refused with a message naming the agent or event and the field.

#include "waymesh/crowd_scenario/crowd_scenario.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace waymesh {
namespace {

using ::testing::HasSubstr;

constexpr char kFull[] = R"({
  "tick_hz": 10, "duration_s": 30, "mode": "circling",
  "agents": [
    {"id": 1, "position": [0, 0, 0], "target": [5, 0, 5], "radius": 0.4, "max_speed": 2,
     "max_accel": 6, "areas": [0, 3]},
    {"id": 2, "position": [1, 0, 0], "route": [[2, 0, 2], [3, 0, 3]]},
    {"id": 3, "position": [2, 0, 0], "target_agent": 1},
    {"id": 4, "position": [3, 0, 0], "leader": 1, "offset": [1, 0, -2]},
    {"id": 5, "position": [4, 0, 0]}
  ],
  "events": [
    {"t": 12, "retarget": 1, "target": [9, 0, 9]},
    {"t": 1.5, "chase": 5, "target_agent": 2},
    {"t": 2, "follow": 3, "leader": 2, "offset": [0, 0, -1]},
    {"t": 3, "stop": 2},
    {"t": 4, "teleport": 4, "position": [7, 0, 7]},
    {"t": 5, "remove": 5},
    {"t": 6, "add": {"id": 6, "position": [8, 0, 8], "target": [0, 0, 0]}}
  ]
})";

TEST(CrowdScenarioTest, ReadsEveryField) {
  absl::StatusOr<CrowdScenario> s = ParseCrowdScenario(kFull, "full.json");
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->tick_hz, 10);
  EXPECT_EQ(s->duration_s, 30);
  EXPECT_EQ(s->ticks(), 300u);
  EXPECT_EQ(s->mode, crowd::AvoidanceMode::kCircling);
  ASSERT_EQ(s->agents.size(), 5u);
  const ScenarioAgent& a = s->agents[0];
  EXPECT_EQ(a.route, (std::vector<Vec3>{{5, 0, 5}}));
  EXPECT_FLOAT_EQ(a.radius, 0.4f);
  EXPECT_FLOAT_EQ(a.max_speed, 2);
  EXPECT_FLOAT_EQ(a.max_accel, 6);
  EXPECT_EQ(a.areas, (std::vector<uint8_t>{0, 3}));
  EXPECT_EQ(s->agents[1].route.size(), 2u);
  EXPECT_EQ(s->agents[2].target_agent, 1u);
  EXPECT_EQ(s->agents[3].leader, 1u);
  EXPECT_EQ(s->agents[3].offset, (Vec3{1, 0, -2}));
  EXPECT_FLOAT_EQ(s->agents[4].radius, 0.5f);  // defaults
  ASSERT_EQ(s->events.size(), 7u);
  // Sorted by time.
  EXPECT_EQ(s->events[0].kind, ScenarioEvent::Kind::kChase);
  EXPECT_EQ(s->events[0].other, 2u);
  EXPECT_EQ(s->events.back().kind, ScenarioEvent::Kind::kRetarget);
  EXPECT_EQ(s->events.back().point, (Vec3{9, 0, 9}));
  EXPECT_EQ(s->events[5].added.id, 6u);
}

TEST(CrowdScenarioTest, TheWriterIsReadBackToTheSameScenario) {
  absl::StatusOr<CrowdScenario> s = ParseCrowdScenario(kFull, "full.json");
  ASSERT_TRUE(s.ok());
  const std::string written = CrowdScenarioJson(*s);
  absl::StatusOr<CrowdScenario> again = ParseCrowdScenario(written, "written.json");
  ASSERT_TRUE(again.ok()) << again.status() << "\n" << written;
  EXPECT_EQ(CrowdScenarioJson(*again), written);
  EXPECT_EQ(again->agents.size(), s->agents.size());
  EXPECT_EQ(again->events.size(), s->events.size());
}

TEST(CrowdScenarioTest, BadFilesNameTheAgentOrEventAndTheField) {
  struct Case {
    const char* json;
    const char* message;
  };
  const std::vector<Case> cases{
      {"[]", "must be a JSON object"},
      {"{}", "agents is missing"},
      {R"({"agents": [], "tick_hz": 0})", "tick_hz must be greater than 0"},
      {R"({"agents": [], "duration_s": -1})", "duration_s = -1 is out of range"},
      {R"({"agents": [], "tick_hz": 1000, "duration_s": 604800})", "at most 10000000"},
      {R"({"agents": [], "mode": "swarm"})", "mode avoidance mode \"swarm\""},
      {R"({"agents": [], "speed": 3})", "unknown key \"speed\""},
      {R"({"agents": [{"position": [0, 0, 0]}]})", "agents[0].id is missing"},
      {R"({"agents": [{"id": 1}]})", "agents[0].position is missing"},
      {R"({"agents": [{"id": -1, "position": [0, 0, 0]}]})", "agents[0].id = -1 is out of range"},
      {R"({"agents": [{"id": 1, "position": [0, 0]}]})", "agents[0].position has 2 numbers"},
      {R"({"agents": [{"id": 1, "position": [0, "a", 0]}]})", "agents[0].position[1] must be"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 1e9]}]})", "agents[0].position[2]"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0], "radius": 0}]})",
       "agents[0].radius must be greater than 0"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0], "max_speed": 1000}]})",
       "agents[0].max_speed = 1000 is out of range"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0], "areas": [64]}]})",
       "agents[0].areas[0] = 64 is out of range"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0], "target": [1, 0, 1], "target_agent": 2}]})",
       "agents[0] has more than one goal"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0], "target_agent": 1}]})",
       "agents[0].target_agent names the agent itself"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0], "offset": [1, 0, 1]}]})",
       "agents[0].offset needs a leader"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0], "route": []}]})",
       "agents[0].route is empty"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0]}, {"id": 1, "position": [1, 0, 1]}]})",
       "agents[1].id = 1 is used twice"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0], "leader": 7}]})",
       "agents[0].leader names agent 7, which no agent or add has"},
      {R"({"agents": [], "events": [{"retarget": 1, "target": [0, 0, 0]}]})",
       "events[0].t is missing"},
      {R"({"agents": [], "duration_s": 10, "events": [{"t": 11, "stop": 1}]})",
       "events[0].t = 11 is out of range"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0]}], "events": [{"t": 1}]})",
       "events[0] has no action"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0]}], "events": [{"t": 1, "stop": 1, "remove": 1}]})",
       "events[0] has two actions"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0]}], "events": [{"t": 1, "retarget": 1}]})",
       "events[0] (retarget) needs \"target\""},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0]}], "events": [{"t": 1, "stop": 2}]})",
       "events (at t = 1 s) names agent 2"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0]}], "events": [{"t": 1, "chase": 1, "target_agent": 1}]})",
       "events[0].target_agent names the event's agent itself"},
      {R"({"agents": [], "events": [{"t": 1, "add": {"id": 2}}]})",
       "events[0].add.position is missing"},
      {R"({"agents": [)", "full.json"},
      {R"({"agents": [], "agents": []})", "full.json"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<CrowdScenario> s = ParseCrowdScenario(c.json, "full.json");
    ASSERT_FALSE(s.ok()) << c.json;
    EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument) << c.json;
    EXPECT_THAT(std::string(s.status().message()), HasSubstr(c.message)) << c.json;
    EXPECT_THAT(std::string(s.status().message()), HasSubstr("full.json")) << c.json;
  }
}

TEST(CrowdScenarioTest, NestingAndSizeAreBounded) {
  std::string deep = R"({"agents": [], "x": )";
  for (int i = 0; i < 100000; ++i) deep += "[";
  EXPECT_FALSE(ParseCrowdScenario(deep, "deep.json").ok());
  EXPECT_FALSE(ReadCrowdScenario("/nonexistent/scenario.json").ok());
}

}  // namespace
}  // namespace waymesh
