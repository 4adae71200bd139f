// `waymesh crowd` as a user runs it: a map and a scenario in, trajectories.csv and a summary
// out; bad scenarios refused with the agent or field named and exit code 2.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "support/shell_quote.h"

namespace waymesh::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// A 30 x 6 m corridor along x as an OBJ, compiled with `waymesh build` into `dir`.
std::string BuildCorridor(const std::string& dir) {
  const std::string obj = dir + "/corridor.obj";
  std::ofstream(obj) << "v -15 0 -3\nv 15 0 -3\nv 15 0 3\nv -15 0 3\nf 1 2 3 4\n";
  const std::string map = dir + "/corridor.wmesh";
  const CliResult build = RunCli("build -q " + ShellQuote(obj) + " -o " + ShellQuote(map));
  EXPECT_EQ(build.exit_code, 0) << build.out;
  return map;
}

std::string WriteScenario(const std::string& dir, const std::string& name,
                          const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path) << text;
  return path;
}

constexpr char kHeadOn[] = R"({"tick_hz": 20, "duration_s": 12, "agents": [
  {"id": 1, "position": [-10, 0, 0], "target": [10, 0, 0]},
  {"id": 2, "position": [10, 0, 0], "target": [-10, 0, 0], "radius": 0.4}]})";

TEST(CrowdCliTest, RunsAScenarioAndWritesOneRowPerAgentPerTick) {
  const std::string dir = TempDir("cli-crowd");
  const std::string map = BuildCorridor(dir);
  const std::string scenario = WriteScenario(dir, "head_on.json", kHeadOn);
  const std::string csv = dir + "/trajectories.csv";
  for (const char* mode : {"orca", "circling"}) {
    const CliResult r = RunCli("crowd " + ShellQuote(map) + " --scenario " + ShellQuote(scenario) +
                               " --out " + ShellQuote(csv) + " --mode " + mode);
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_THAT(r.out, HasSubstr(std::string(mode) + " avoidance"));
    EXPECT_THAT(r.out, HasSubstr("agents            2"));
    EXPECT_THAT(r.out, HasSubstr("ticks             240"));
    EXPECT_THAT(r.out, HasSubstr("arrived           2 of 2 with a target"));
    EXPECT_THAT(r.out, HasSubstr("overlaps          0 pair-ticks"));
    EXPECT_THAT(r.out, HasSubstr("(0 agent-ticks into a wall)"));
    EXPECT_THAT(r.out, HasSubstr("time per tick     mean "));
    const std::vector<std::string> lines = FileLines(csv);
    ASSERT_EQ(lines.size(), 1u + 2 * 241);  // header, ticks 0..240 for two agents
    EXPECT_EQ(lines[0], "tick,agent,x,y,z,vx,vz,state");
    EXPECT_EQ(lines[1], "0,1,-10.0000,0.0000,0.0000,0.0000,0.0000,moving");
    // The last row: agent 2 at its target (within the crowd's arrival distance, 0.2 m).
    EXPECT_THAT(lines.back(), StartsWith("240,2,"));
    EXPECT_THAT(lines.back(), HasSubstr(",arrived"));
    float x = 0, y = 0, z = 0;
    ASSERT_EQ(std::sscanf(lines.back().c_str(), "240,2,%f,%f,%f", &x, &y, &z), 3);
    EXPECT_LE(std::hypot(x + 10, z), 0.2f);
  }
}

TEST(CrowdCliTest, BadScenariosNameTheAgentAndFieldAndExit2) {
  const std::string dir = TempDir("cli-crowd-bad");
  const std::string map = BuildCorridor(dir);
  struct Case {
    const char* json;
    const char* message;
  };
  const std::vector<Case> cases{
      {R"({"agents": [{"id": 1, "position": [0, 0, 0], "radius": -1}]})", "agents[0].radius"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 50]}]})", "agent 1: no walkable polygon"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0]}],
           "events": [{"t": 1, "teleport": 1, "position": [0, 0, 40]}]})",
       "event at t = 1 s: agent 1"},
      {R"({"agents": [{"id": 1, "position": [0, 0, 0]}], "bogus": 1})", "unknown key \"bogus\""},
      {"not json", "bad.json"},
  };
  for (const Case& c : cases) {
    const std::string scenario = WriteScenario(dir, "bad.json", c.json);
    const CliResult r = RunCli("crowd " + ShellQuote(map) + " --scenario " + ShellQuote(scenario));
    EXPECT_EQ(r.exit_code, 2) << c.json << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr(c.message)) << c.json;
  }
  const std::string good = WriteScenario(dir, "good.json", kHeadOn);
  const CliResult bad_mode =
      RunCli("crowd " + ShellQuote(map) + " --scenario " + ShellQuote(good) + " --mode swarm");
  EXPECT_EQ(bad_mode.exit_code, 2);
  EXPECT_THAT(bad_mode.out, HasSubstr("--mode"));
  const CliResult no_map =
      RunCli("crowd " + ShellQuote(dir + "/none.wmesh") + " --scenario " + ShellQuote(good));
  EXPECT_EQ(no_map.exit_code, 2);  // CLI11 checks the file exists
}

}  // namespace
}  // namespace waymesh::testing
