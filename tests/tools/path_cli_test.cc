// `waymesh path` as a user runs it: a query file in, a summary and results.csv out, clear
// errors with file:line for bad query files and exit code 2 for bad arguments.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.h"
#include "support/shell_quote.h"
#include "support/test_data.h"

namespace waymesh::testing {
namespace {

using ::testing::HasSubstr;

// Builds arena.mesh (triangles kept) into `dir` once per test.
std::string BuildArena(const std::string& dir) {
  const std::string map = dir + "/arena.wmesh";
  CliResult build =
      RunCli("build -q --no-merge " + ShellQuote(SharedData("polyanya/meshes/arena.mesh")) +
             " -o " + ShellQuote(map));
  EXPECT_EQ(build.exit_code, 0) << build.out;
  return map;
}

// `waymesh path MAP --queries FILE` after writing `queries` to FILE.
CliResult RunPathOnFile(const std::string& map, const std::string& file,
                        const std::string& queries) {
  std::ofstream(file) << queries;
  return RunCli("path " + ShellQuote(map) + " --queries " + ShellQuote(file));
}

TEST(PathCliTest, ExpectedFileGivesSummaryAndCsv) {
  const std::string dir = TempDir("cli-path");
  const std::string map = BuildArena(dir);
  const std::string csv = dir + "/results.csv";
  CliResult r = RunCli("path " + ShellQuote(map) + " --queries " +
                       ShellQuote(SharedData("polyanya/expected/arena_euclid_expected.csv")) +
                       " --out " + ShellQuote(csv) + " --extents 0.5,1,0.5");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("160 queries"));
  EXPECT_THAT(r.out, HasSubstr("COMPLETE        160"));
  EXPECT_THAT(r.out, HasSubstr("length / expected  mean 1.000"));
  EXPECT_THAT(r.out, HasSubstr("nodes expanded  mean "));
  EXPECT_THAT(r.out, HasSubstr("(0 shorter than expected)"));
  const std::vector<std::string> lines = FileLines(csv);
  ASSERT_EQ(lines.size(), 161u);
  EXPECT_EQ(lines[0], "query,status,length,micros,waypoints");
  // First query: 1 11 -> 1 12, a straight unit step; waypoints in the map frame (y = 0, z =
  // the mesh's y).
  EXPECT_THAT(lines[1], HasSubstr("0,COMPLETE,1.000000,"));
  EXPECT_THAT(lines[1], HasSubstr(",1 0 11;1 0 12"));
}

TEST(PathCliTest, ScenarioAnd3dFilesAreAccepted) {
  const std::string dir = TempDir("cli-path-formats");
  const std::string map = BuildArena(dir);
  CliResult r = RunPathOnFile(map, dir + "/q.scen",
                              "version 1\n0\tarena.mesh\t50\t50\t1.0\t11.0\t1.0\t12.0\t1.0\n");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("COMPLETE        1"));
  r = RunPathOnFile(map, dir + "/q3.txt",
                    "# 3D: sx sy sz gx gy gz\n1 0 11 1 0 12\n1 0 11 500 0 500\n");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr("COMPLETE        1"));
  EXPECT_THAT(r.out, HasSubstr("END_OFF_MESH    1"));
}

TEST(PathCliTest, BadQueryFileNamesFileAndLine) {
  const std::string dir = TempDir("cli-path-bad");
  const std::string map = BuildArena(dir);
  const std::string bad = dir + "/bad.txt";
  CliResult r = RunPathOnFile(map, bad, "# fine\n1 11 1 12\n1 11 oops 12\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("bad.txt:3"));
  EXPECT_THAT(r.out, HasSubstr("'oops'"));
  r = RunPathOnFile(map, bad, "1 2 3\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("bad.txt:1"));
  EXPECT_THAT(r.out, HasSubstr("got 3"));
  r = RunPathOnFile(map, bad, "1 11 nan 12\n");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("not a finite number"));
}

TEST(PathCliTest, BadArgumentsExitWithCode2) {
  const std::string dir = TempDir("cli-path-args");
  const std::string map = BuildArena(dir);
  const std::string q = SharedData("polyanya/expected/arena_euclid_expected.csv");
  CliResult r =
      RunCli("path " + ShellQuote(map) + " --queries " + ShellQuote(q) + " --extents 1,2");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, HasSubstr("--extents"));
  r = RunCli("path " + ShellQuote(map) + " --queries " + ShellQuote(q) + " --extents 1,-2,1");
  EXPECT_EQ(r.exit_code, 2);
  r = RunCli("path " + ShellQuote(map));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, HasSubstr("--queries"));
  r = RunCli("path " + ShellQuote(dir + "/missing.wmesh") + " --queries " + ShellQuote(q));
  EXPECT_EQ(r.exit_code, 2);
  // A file that is not a map: a load error naming it, exit 1.
  r = RunCli("path " + ShellQuote(q) + " --queries " + ShellQuote(q));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("arena_euclid_expected.csv"));
}

// Exact mode reaches every published optimum, on the map and through its plan twin.
TEST(PathCliTest, ExactPathsMeetTheOptimaWithOrWithoutTheTwin) {
  const std::string dir = TempDir("cli-path-exact");
  const std::string map = BuildArena(dir);
  for (const std::string flags : {" --exact", " --exact --exact-twin"}) {
    CliResult r = RunCli("path " + ShellQuote(map) + " --queries " +
                         ShellQuote(SharedData("polyanya/expected/arena_euclid_expected.csv")) +
                         " --extents 0.5,1,0.5" + flags);
    ASSERT_EQ(r.exit_code, 0) << flags << "\n" << r.out;
    EXPECT_THAT(r.out, HasSubstr("COMPLETE        160")) << flags;
    EXPECT_THAT(r.out, HasSubstr("length / expected  mean 1.000")) << flags;
    EXPECT_THAT(r.out, HasSubstr("(0 shorter than expected)")) << flags;
  }
  EXPECT_EQ(RunCli("path " + ShellQuote(map) + " --queries x --exact-twin").exit_code, 2);
}

}  // namespace
}  // namespace waymesh::testing
