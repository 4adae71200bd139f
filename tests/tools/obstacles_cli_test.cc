// `waymesh path --obstacles` and `waymesh render --obstacles` as a user runs them: obstacles
// carved into the map change the answers, footprints are drawn, and a bad obstacle file exits 2
// naming the obstacle and the field.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "cli_runner.h"
#include "support/shell_quote.h"
#include "support/test_data.h"

namespace waymesh::testing {
namespace {

using ::testing::HasSubstr;

// A wall from one side of the arena (about 0..49 m in x and z) to the other, across z = 21.
constexpr char kObstacleWallAcross[] = R"({"obstacles": [
  {"id": "wall-across", "shape": "prism", "points": [[-5, 20], [60, 20], [60, 22], [-5, 22]],
   "y_min": -5, "y_max": 5, "effect": "block"},
  {"id": "fire", "shape": "cylinder", "center": [3, 0, 5], "radius": 1, "height": 2,
   "effect": "area", "area": 5}
]})";

// One query crossing z = 21 (1,10 -> 5,32) and one staying south of it (1,11 -> 1,12).
constexpr char kCrossingQueries[] = "1 10 5 32\n1 11 1 12\n";

struct ObstacleArena {
  std::string dir, map, queries;
};

ObstacleArena BuildObstacleArena(const std::string& name) {
  ObstacleArena a{TempDir(name), "", ""};
  a.map = a.dir + "/arena.wmesh";
  CliResult build = RunCli("build -q " + ShellQuote(SharedData("polyanya/meshes/arena.mesh")) +
                           " -o " + ShellQuote(a.map));
  EXPECT_EQ(build.exit_code, 0) << build.out;
  a.queries = a.dir + "/queries.txt";
  std::ofstream(a.queries) << kCrossingQueries;
  return a;
}

std::string WriteObstacleFile(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
  return path;
}

// `waymesh path` on the arena's crossing queries with `flags`.
CliResult RunArenaPaths(const ObstacleArena& a, const std::string& flags) {
  return RunCli("path " + ShellQuote(a.map) + " --queries " + ShellQuote(a.queries) + flags);
}

TEST(ObstaclesCliTest, AWallAcrossTheArenaCutsTheCrossingPathOnly) {
  const ObstacleArena a = BuildObstacleArena("cli-obstacles-path");
  CliResult free = RunArenaPaths(a, "");
  ASSERT_EQ(free.exit_code, 0) << free.out;
  EXPECT_THAT(free.out, HasSubstr("COMPLETE        2"));

  const std::string obstacles = WriteObstacleFile(a.dir + "/wall.json", kObstacleWallAcross);
  CliResult walled = RunArenaPaths(a, " --obstacles " + ShellQuote(obstacles));
  ASSERT_EQ(walled.exit_code, 0) << walled.out;
  EXPECT_THAT(walled.out, HasSubstr("COMPLETE        1"));
  EXPECT_THAT(walled.out, HasSubstr("NO_PATH         1"));
}

// Exact paths run with obstacles carved in: the wall across the arena cuts one of the two
// queries off, as in approximate mode.
TEST(ObstaclesCliTest, ExactPathsRunWithObstacles) {
  const ObstacleArena a = BuildObstacleArena("cli-obstacles-exact");
  CliResult free = RunArenaPaths(a, " --exact");
  ASSERT_EQ(free.exit_code, 0) << free.out;
  EXPECT_THAT(free.out, HasSubstr("COMPLETE        2"));
  const std::string obstacles = WriteObstacleFile(a.dir + "/wall.json", kObstacleWallAcross);
  CliResult walled = RunArenaPaths(a, " --exact --obstacles " + ShellQuote(obstacles));
  ASSERT_EQ(walled.exit_code, 0) << walled.out;
  EXPECT_THAT(walled.out, HasSubstr("COMPLETE        1"));
  EXPECT_THAT(walled.out, HasSubstr("NO_PATH         1"));
}

TEST(ObstaclesCliTest, RenderDrawsTheFootprints) {
  const ObstacleArena a = BuildObstacleArena("cli-obstacles-render");
  const std::string obstacles = WriteObstacleFile(a.dir + "/wall.json", kObstacleWallAcross);
  const std::string svg = a.dir + "/walled.svg";
  CliResult r = RunCli("render " + ShellQuote(a.map) + " -o " + ShellQuote(svg) + " --obstacles " +
                       ShellQuote(obstacles));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::stringstream text;
  text << std::ifstream(svg).rdbuf();
  EXPECT_THAT(text.str(), HasSubstr("block obstacle (1)"));
  EXPECT_THAT(text.str(), HasSubstr("area obstacle (1)"));
  EXPECT_THAT(text.str(), HasSubstr("stroke=\"#961414\""));  // the block outline
}

TEST(ObstaclesCliTest, ABadObstacleFileExitsTwoNamingTheObstacleAndTheField) {
  const ObstacleArena a = BuildObstacleArena("cli-obstacles-bad");
  const std::string bad = WriteObstacleFile(a.dir + "/bad.json", R"({"obstacles": [
    {"id": "wall-9", "shape": "prism", "points": [[0, 0], [4, 0], [1, 1], [4, 4], [0, 4]],
     "y_min": 0, "y_max": 3, "effect": "block"}]})");
  for (const std::string& verb :
       {"path " + ShellQuote(a.map) + " --queries " + ShellQuote(a.queries),
        "render " + ShellQuote(a.map) + " -o " + ShellQuote(a.dir + "/bad.png")}) {
    CliResult r = RunCli(verb + " --obstacles " + ShellQuote(bad));
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_THAT(r.out, HasSubstr("bad.json: obstacles[0]"));
    EXPECT_THAT(r.out, HasSubstr("wall-9"));
    EXPECT_THAT(r.out, HasSubstr("points"));
  }
  const std::string nan = WriteObstacleFile(a.dir + "/nan.json", R"({"obstacles": [
    {"id": "post", "shape": "cylinder", "center": [1, 0, "x"], "radius": 1, "height": 1,
     "effect": "block"}]})");
  CliResult r = RunCli("path " + ShellQuote(a.map) + " --queries " + ShellQuote(a.queries) +
                       " --obstacles " + ShellQuote(nan));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_THAT(r.out, HasSubstr("obstacles[0] (id \"post\").center"));
}

}  // namespace
}  // namespace waymesh::testing
