// The `waymesh` command line, run as a user runs it: exit codes, messages, files it writes.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <numeric>

#include "cli_runner.h"
#include "support/shell_quote.h"
#include "support/test_data.h"

namespace waymesh::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

TEST(CliTest, EveryVerbHasHelp) {
  for (const char* verb : {"build", "inspect", "demo-world", "path"}) {
    CliResult r = RunCli(std::string(verb) + " --help");
    EXPECT_EQ(r.exit_code, 0) << verb << ": " << r.out;
    EXPECT_THAT(r.out, HasSubstr("Usage")) << verb;
  }
}

TEST(CliTest, BadArgumentsExitWithCode2AndSayWhy) {
  EXPECT_EQ(RunCli("").exit_code, 2);
  CliResult unknown = RunCli("frobnicate");
  EXPECT_EQ(unknown.exit_code, 2);
  CliResult missing = RunCli("build /nonexistent/x.json -o /tmp/x.wmesh");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.out, HasSubstr("/nonexistent/x.json"));
  CliResult verts = RunCli("build " + ShellQuote(SharedData("unity/1000.navmesh")) +
                           " -o /tmp/x.wmesh --max-verts 2");
  EXPECT_EQ(verts.exit_code, 2);
  EXPECT_THAT(verts.out, HasSubstr("--max-verts"));
  CliResult no_output = RunCli("build " + ShellQuote(SharedData("unity/1000.navmesh")));
  EXPECT_EQ(no_output.exit_code, 2);
  EXPECT_THAT(no_output.out, HasSubstr("--output"));
}

// `build --exact-landmarks` stores the table and says what it cost; inspect shows it. A map too
// small for a table says so and stays without one.
TEST(CliTest, BuildStoresTheExactLandmarkTableWhenAsked) {
  const std::string dir = TempDir("cli-exact");
  const std::string map = dir + "/aurora.wmesh";
  CliResult build = RunCli("build -q --exact-landmarks " +
                           ShellQuote(SharedData("polyanya/meshes/aurora-merged.mesh")) + " -o " +
                           ShellQuote(map));
  ASSERT_EQ(build.exit_code, 0) << build.out;
  EXPECT_THAT(build.out, HasSubstr("exact landmarks: 16 landmarks, "));
  EXPECT_THAT(build.out, HasSubstr(" bytes per polygon) in "));
  const nlohmann::json info = InspectJson(map);
  ASSERT_FALSE(info.is_null());
  EXPECT_EQ(info["exact_landmarks"]["landmarks"].get<uint32_t>(), 16u);
  EXPECT_GT(info["exact_landmarks"]["bytes"].get<uint64_t>(),
            40 * info["polygons"].get<uint64_t>());
  CliResult text = RunCli("inspect " + ShellQuote(map));
  EXPECT_THAT(text.out, HasSubstr("exact table  16 landmarks"));

  const std::string small = dir + "/arena.wmesh";
  CliResult none =
      RunCli("build -q --exact-landmarks " + ShellQuote(SharedData("polyanya/meshes/arena.mesh")) +
             " -o " + ShellQuote(small));
  ASSERT_EQ(none.exit_code, 0) << none.out;
  EXPECT_THAT(none.out, HasSubstr("exact landmarks: none"));
  EXPECT_EQ(InspectJson(small)["exact_landmarks"]["landmarks"].get<uint32_t>(), 0u);
}

// `build --exact-twin` stores the plan twin and says how far it cut the polygons; inspect shows
// it, and exact paths on the file (through the stored twin, no flag) meet the published optima.
// A map merged well already gets none and says so.
TEST(CliTest, BuildStoresThePlanTwinWhenAsked) {
  const std::string dir = TempDir("cli-twin");
  const std::string map = dir + "/aurora.wmesh";
  CliResult build = RunCli("build -q --no-merge --exact-twin " +
                           ShellQuote(SharedData("polyanya/meshes/aurora.mesh")) + " -o " +
                           ShellQuote(map));
  ASSERT_EQ(build.exit_code, 0) << build.out;
  EXPECT_THAT(build.out, HasSubstr("plan twin: "));
  EXPECT_THAT(build.out, HasSubstr(" inner vertices removed), "));
  const nlohmann::json info = InspectJson(map);
  ASSERT_FALSE(info.is_null());
  const uint64_t polygons = info["polygons"].get<uint64_t>();
  EXPECT_GT(info["exact_twin"]["polygons"].get<uint64_t>(), 0u);
  EXPECT_LE(info["exact_twin"]["polygons"].get<uint64_t>() * 3, polygons * 2);
  EXPECT_GT(info["exact_twin"]["bytes"].get<uint64_t>(), 0u);
  EXPECT_THAT(RunCli("inspect " + ShellQuote(map)).out, HasSubstr("plan twin    "));
  CliResult paths = RunCli("path " + ShellQuote(map) + " --queries " +
                           ShellQuote(SharedData("polyanya/expected/aurora_euclid_expected.csv")) +
                           " --extents 0.5,1,0.5 --exact");
  ASSERT_EQ(paths.exit_code, 0) << paths.out;
  EXPECT_THAT(paths.out, HasSubstr("length / expected  mean 1.000"));
  EXPECT_THAT(paths.out, HasSubstr("(0 shorter than expected)"));

  const std::string merged = dir + "/aurora-merged.wmesh";
  CliResult none = RunCli("build -q --no-merge --exact-twin " +
                          ShellQuote(SharedData("polyanya/meshes/aurora-merged.mesh")) + " -o " +
                          ShellQuote(merged));
  ASSERT_EQ(none.exit_code, 0) << none.out;
  EXPECT_THAT(none.out, HasSubstr("plan twin: not stored: it would keep "));
  EXPECT_EQ(InspectJson(merged)["exact_twin"]["polygons"].get<uint64_t>(), 0u);
  EXPECT_THAT(RunCli("inspect " + ShellQuote(merged)).out, HasSubstr("plan twin    none"));
}

TEST(CliTest, BuildThenInspectJsonReportsTheMap) {
  const std::string dir = TempDir("cli-build");
  const std::string map = dir + "/1000.wmesh";
  CliResult build = RunCli("build -q " + ShellQuote(SharedData("unity/1000.navmesh")) + " -o " +
                           ShellQuote(map) + " --tile-size 32");
  ASSERT_EQ(build.exit_code, 0) << build.out;
  EXPECT_THAT(build.out, HasSubstr("welded"));
  EXPECT_THAT(build.out, HasSubstr("t-junctions"));
  ASSERT_TRUE(std::filesystem::exists(map));

  const nlohmann::json info = InspectJson(map);
  ASSERT_FALSE(info.is_null());
  for (const char* key : {"vertices", "polygons", "tiles", "islands", "island_polygons",
                          "walkable_area", "bytes", "bytes_per_polygon", "repairs"}) {
    EXPECT_TRUE(info.contains(key)) << key;
  }
  for (const char* key : {"welded", "t_junctions", "non_manifold", "degenerate"}) {
    EXPECT_TRUE(info["repairs"].contains(key)) << key;
  }
  const auto sizes = info["island_polygons"].get<std::vector<uint64_t>>();
  EXPECT_EQ(sizes.size(), info["islands"].get<size_t>());
  EXPECT_TRUE(std::is_sorted(sizes.rbegin(), sizes.rend()));
  EXPECT_EQ(std::accumulate(sizes.begin(), sizes.end(), uint64_t{0}),
            info["polygons"].get<uint64_t>());
  // 1000.navmesh duplicates every vertex per polygon: welding must find ~half of 445.
  EXPECT_GT(info["repairs"]["welded"].get<uint64_t>(), 100u);
  EXPECT_LT(info["vertices"].get<uint64_t>(), 445u);
  EXPECT_GT(info["walkable_area"].get<double>(), 100.0);
  EXPECT_EQ(info["bytes"].get<uint64_t>(), std::filesystem::file_size(map));
  EXPECT_GT(info["tiles"].get<uint64_t>(), 1u);  // 80 m map, 32 m tiles

  CliResult text = RunCli("inspect " + ShellQuote(map));
  ASSERT_EQ(text.exit_code, 0) << text.out;
  EXPECT_THAT(text.out, HasSubstr("checksums    ok"));
}

TEST(CliTest, SeveralExportsBuildIntoOneWorld) {
  const std::string dir = TempDir("cli-world");
  const std::string one = dir + "/one.wmesh", two = dir + "/two.wmesh";
  ASSERT_EQ(
      RunCli("build -q " + ShellQuote(SharedData("unity/1000.navmesh")) + " -o " + ShellQuote(one))
          .exit_code,
      0);
  CliResult both = RunCli("build -q " + ShellQuote(SharedData("unity/1000.navmesh")) + " " +
                          ShellQuote(SharedData("unity/1200.navmesh")) + " -o " + ShellQuote(two));
  ASSERT_EQ(both.exit_code, 0) << both.out;
  auto polygons = [](const std::string& map) {
    return InspectJson(map)["polygons"].get<uint64_t>();
  };
  EXPECT_GT(polygons(two), polygons(one));
}

TEST(CliTest, CorruptedMapIsRejectedWithTheFailingCheck) {
  const std::string dir = TempDir("cli-corrupt");
  const std::string map = dir + "/m.wmesh";
  ASSERT_EQ(
      RunCli("build -q " + ShellQuote(SharedData("unity/1100.navmesh")) + " -o " + ShellQuote(map))
          .exit_code,
      0);
  std::string bytes = ReadFileOrDie(map);
  bytes[bytes.size() - 5] ^= 0x40;  // inside the last tile
  std::ofstream(map, std::ios::binary | std::ios::trunc) << bytes;
  CliResult r = RunCli("inspect " + ShellQuote(map));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("CRC"));
  // The loader's message names the file; the verb does not repeat it.
  EXPECT_THAT(r.out, HasSubstr("waymesh inspect: " + map + ": "));
  EXPECT_THAT(r.out, Not(HasSubstr(map + ": " + map)));
  std::ofstream(dir + "/q.txt") << "0 0 1 1\n";
  CliResult path = RunCli("path " + ShellQuote(map) + " --queries " + ShellQuote(dir + "/q.txt"));
  EXPECT_EQ(path.exit_code, 1);
  EXPECT_THAT(path.out, HasSubstr("waymesh path: " + map + ": "));
  EXPECT_THAT(path.out, Not(HasSubstr(map + ": " + map)));
}

TEST(CliTest, MalformedExportFailsWithFileAndLine) {
  const std::string dir = TempDir("cli-malformed");
  const std::string obj = dir + "/bad.obj";
  std::ofstream(obj) << "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 9\n";
  CliResult r = RunCli("build " + ShellQuote(obj) + " -o " + ShellQuote(dir + "/bad.wmesh"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("bad.obj:4"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/bad.wmesh"));
}

// The map name comes from the input's file name here; bytes that are not UTF-8 would reach
// every client of the server in ListMaps, which could then not parse the answer.
TEST(CliTest, BuildRefusesAMapNameThatIsNotUtf8) {
  const std::string dir = TempDir("cli-utf8");
  const std::string obj = dir + "/caf\xe9.obj";
  std::ofstream(obj) << "v 0 0 0\nv 1 0 0\nv 1 0 1\nf 1 2 3\n";
  CliResult r = RunCli("build " + ShellQuote(obj) + " -o " + ShellQuote(dir + "/out.wmesh"));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("map name is not valid UTF-8"));
  EXPECT_FALSE(std::filesystem::exists(dir + "/out.wmesh"));
}

TEST(CliTest, DemoWorldBuildsAndInspects) {
  const std::string dir = TempDir("cli-demo");
  CliResult gen = RunCli("demo-world --size 160 --seed 3 -o " + ShellQuote(dir + "/town.json"));
  ASSERT_EQ(gen.exit_code, 0) << gen.out;
  CliResult build = RunCli("build -q " + ShellQuote(dir + "/town.json") + " -o " +
                           ShellQuote(dir + "/town.wmesh"));
  ASSERT_EQ(build.exit_code, 0) << build.out;
  const nlohmann::json info = InspectJson(dir + "/town.wmesh");
  EXPECT_GE(info["islands"].get<int>(), 3);  // town, courtyard, islet, rooftop ...
  EXPECT_GT(info["repairs"]["t_junctions"].get<uint64_t>(), 0u);
  EXPECT_GT(info["off_mesh_links"].get<uint64_t>(), 0u);
  CliResult bad_size = RunCli("demo-world --size -5 -o " + ShellQuote(dir + "/x.json"));
  EXPECT_EQ(bad_size.exit_code, 2);
}

}  // namespace
}  // namespace waymesh::testing
