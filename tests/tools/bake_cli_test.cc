// `waymesh bake` run as a user runs it: a map from OBJ geometry (with or without the exact
// landmark table), progress lines, exit code 2 for bad flags and 1 for bad files, each with a
// message that says what and where.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.h"
#include "support/shell_quote.h"
#include "support/test_data.h"

namespace waymesh::testing {
namespace {

using ::testing::HasSubstr;

std::string NavTest() { return ShellQuote(SharedData("recast/nav_test.obj")); }

std::string Write(const std::string& dir, const std::string& name, const std::string& text) {
  const std::string path = dir + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

TEST(BakeCliTest, BakesAMapThatInspectReadsWithTheAgentSettings) {
  const std::string dir = TempDir("cli-bake");
  const std::string map = dir + "/nav_test.wmesh";
  const std::string areas = Write(dir, "areas.json", R"({
    "areas": [{"id": 4, "name": "Grass", "cost": 2}],
    "volumes": [{"area": 4, "box": {"min": [-20, -5, -14], "max": [-10, 0, -4]}}],
    "off_mesh_links": [{"start": [18.25, -2.37, -7.0], "end": [6.05, -2.37, 3.33]}]})");
  CliResult bake =
      RunCli("bake " + NavTest() + " -o " + ShellQuote(map) + " --areas " + ShellQuote(areas) +
             " --agent-radius 0.6 --agent-height 2 --step-height 0.9 --max-slope 45"
             " --voxel-size 0.3 --cell-height 0.2 --tile-size 32");
  ASSERT_EQ(bake.exit_code, 0) << bake.out;
  EXPECT_THAT(bake.out, HasSubstr("bake tile"));  // per-tile progress on stderr
  EXPECT_THAT(bake.out, HasSubstr("Recast polygons"));
  EXPECT_THAT(bake.out, HasSubstr("welded"));
  ASSERT_TRUE(std::filesystem::exists(map));

  const nlohmann::json info = InspectJson(map);
  ASSERT_FALSE(info.is_null());
  EXPECT_GT(info["polygons"].get<uint64_t>(), 100u);
  EXPECT_GT(info["tiles"].get<uint64_t>(), 1u);
  EXPECT_THAT(info["areas"].dump(), HasSubstr("Grass"));  // the volume's area is used
  EXPECT_NEAR(info["agent"]["radius"].get<double>(), 0.6, 1e-6);
  EXPECT_NEAR(info["agent"]["step_height"].get<double>(), 0.9, 1e-6);
  EXPECT_NEAR(info["agent"]["voxel_size"].get<double>(), 0.3, 1e-6);
}

TEST(BakeCliTest, QuietBakePrintsNoProgress) {
  const std::string dir = TempDir("cli-bake-quiet");
  CliResult bake =
      RunCli("bake -q " + NavTest() + " -o " + ShellQuote(dir + "/m.wmesh") + " --voxel-size 0.3");
  ASSERT_EQ(bake.exit_code, 0) << bake.out;
  EXPECT_THAT(bake.out, ::testing::Not(HasSubstr("bake tile")));
  EXPECT_THAT(bake.out, HasSubstr("wrote"));
}

// nav_test at 0.1 m voxels has 1117 polygons: enough for a table (maps under 1024 get none).
TEST(BakeCliTest, StoresTheExactLandmarkTableWhenAsked) {
  const std::string dir = TempDir("cli-bake-exact");
  const std::string plain = dir + "/plain.wmesh", exact = dir + "/exact.wmesh";
  const std::string flags = " --voxel-size 0.1";
  CliResult without = RunCli("bake -q " + NavTest() + " -o " + ShellQuote(plain) + flags);
  ASSERT_EQ(without.exit_code, 0) << without.out;
  CliResult with =
      RunCli("bake " + NavTest() + " -o " + ShellQuote(exact) + flags + " --exact-landmarks");
  ASSERT_EQ(with.exit_code, 0) << with.out;
  EXPECT_THAT(with.out, HasSubstr("] exact path indexes"));  // its progress line
  EXPECT_THAT(with.out, HasSubstr("exact landmarks: 16 landmarks, "));
  EXPECT_THAT(without.out, ::testing::Not(HasSubstr("exact landmarks")));

  const nlohmann::json info = InspectJson(exact), plain_info = InspectJson(plain);
  ASSERT_FALSE(info.is_null() || plain_info.is_null());
  EXPECT_GT(info["polygons"].get<uint64_t>(), 1024u);
  EXPECT_EQ(info["polygons"], plain_info["polygons"]);  // the same map, with a table
  EXPECT_EQ(info["exact_landmarks"]["landmarks"].get<uint32_t>(), 16u);
  EXPECT_EQ(plain_info["exact_landmarks"]["landmarks"].get<uint32_t>(), 0u);
  CliResult validate = RunCli("validate " + ShellQuote(exact));
  EXPECT_EQ(validate.exit_code, 0) << validate.out;

  // Bad geometry fails the same way with the flag as without it, and writes nothing.
  const std::string obj = Write(dir, "broken.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 x\n");
  const std::string out = " -o " + ShellQuote(dir + "/broken.wmesh");
  CliResult broken = RunCli("bake -q " + ShellQuote(obj) + out);
  CliResult broken_exact = RunCli("bake -q --exact-landmarks " + ShellQuote(obj) + out);
  EXPECT_EQ(broken_exact.exit_code, 1) << broken_exact.out;
  EXPECT_EQ(broken_exact.out, broken.out);
  EXPECT_THAT(broken_exact.out, HasSubstr(obj + ":4"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/broken.wmesh"));
}

TEST(BakeCliTest, BadFlagsExitWithCode2AndNameTheFlag) {
  const std::string out = " -o " + ShellQuote(TempDir("cli-bake-flags") + "/m.wmesh");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"--voxel-size 0", "--voxel-size"},
      {"--tile-size 4", "--tile-size"},
      {"--max-slope 95", "--max-slope"},
      {"--step-height 3 --agent-height 2", "step height 3 m must be below the agent height"},
      {"--agent-height 0.1 --step-height 0.05 --voxel-size 0.1", "Recast needs 3 to 255"},
      {"--agent-radius -1", "agent radius"},
      {"--cell-height -0.5", "cell height"},
      {"--min-region-area -3", "min region area"},
      {"--agent-radius abc", "--agent-radius"},
      {"--areas /nonexistent/areas.json", "/nonexistent/areas.json"},
  };
  for (const auto& [flags, expected] : cases) {
    CliResult r = RunCli("bake " + NavTest() + out + " " + flags);
    EXPECT_EQ(r.exit_code, 2) << flags << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr(expected)) << flags;
  }
  CliResult missing = RunCli("bake /nonexistent/level.obj" + out);
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.out, HasSubstr("/nonexistent/level.obj"));
  CliResult no_output = RunCli("bake " + NavTest());
  EXPECT_EQ(no_output.exit_code, 2);
  EXPECT_THAT(no_output.out, HasSubstr("--output"));
}

TEST(BakeCliTest, BadFilesExitWithCode1AndSayWhere) {
  const std::string dir = TempDir("cli-bake-files");
  const std::string out = " -o " + ShellQuote(dir + "/m.wmesh");
  const std::string obj = Write(dir, "broken.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 x\n");
  CliResult broken = RunCli("bake " + ShellQuote(obj) + out);
  EXPECT_EQ(broken.exit_code, 1) << broken.out;
  EXPECT_THAT(broken.out, HasSubstr(obj + ":4"));

  const std::string areas = Write(dir, "areas.json", R"({"volumes": [{"area": 0, "box": 1}]})");
  CliResult bad_areas = RunCli("bake " + NavTest() + out + " --areas " + ShellQuote(areas));
  EXPECT_EQ(bad_areas.exit_code, 1) << bad_areas.out;
  EXPECT_THAT(bad_areas.out, HasSubstr(areas + ": volumes[0].box"));

  const std::string syntax = Write(dir, "syntax.json", "{\n  \"volumes\": [\n    {,\n");
  CliResult bad_syntax = RunCli("bake " + NavTest() + out + " --areas " + ShellQuote(syntax));
  EXPECT_EQ(bad_syntax.exit_code, 1) << bad_syntax.out;
  EXPECT_THAT(bad_syntax.out, HasSubstr(syntax + ":3:"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/m.wmesh"));
}

}  // namespace
}  // namespace waymesh::testing
