// `waymesh loaddata` as ghz users run it: JSON arrays of valid requests drawn from the map
// (every FindPath pair has a complete path, zone-local starts stay in their zones), the same
// file for the same seed, clear errors and exit code 2 for bad arguments.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include "cli_runner.h"
#include "nlohmann/json.hpp"
#include "support/test_data.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/format/map_file.h"

namespace waymesh::testing {
namespace {

using ::testing::HasSubstr;
using Json = nlohmann::json;

// The demo town (200 m) compiled into `dir`, once per test.
std::string BuildTown(const std::string& dir) {
  const std::string map = dir + "/town.wmesh";
  CliResult world = RunCli("demo-world --size 200 --seed 7 -o '" + dir + "/town.json'");
  EXPECT_EQ(world.exit_code, 0) << world.out;
  CliResult build = RunCli("build -q '" + dir + "/town.json' -o '" + map + "'");
  EXPECT_EQ(build.exit_code, 0) << build.out;
  return map;
}

Json ReadJson(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

Vec3 V(const Json& j) { return {j["x"].get<float>(), j["y"].get<float>(), j["z"].get<float>()}; }

// Every FindPath request of `requests` has a complete path on the map at `map_path`.
void ExpectCompletePaths(const std::string& map_path, const Json& requests) {
  auto loaded = LoadMapFile(map_path);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  NavQuery q(*loaded);
  PathResult path;
  PathOptions po;
  for (const Json& req : requests) {
    ASSERT_TRUE(q.FindPath(V(req["start"]), V(req["end"]), QueryFilter(), po, &path).ok());
    EXPECT_EQ(path.status, QueryStatus::kComplete) << req.dump();
  }
}

TEST(LoadDataCliTest, FindPathPairsAreReachableAndTheSeedFixesTheFile) {
  const std::string dir = TempDir("loaddata_findpath");
  const std::string map = BuildTown(dir);
  const std::string out = dir + "/findpath.json";
  CliResult r =
      RunCli("loaddata '" + map + "' --rpc FindPath --count 40 --seed 3 -o '" + out + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const Json data = ReadJson(out);
  ASSERT_TRUE(data.is_array());
  ASSERT_EQ(data.size(), 40u);
  for (const Json& req : data) EXPECT_EQ(req["map_id"], "town");
  ExpectCompletePaths(map, data);
  const std::string again = dir + "/again.json";
  ASSERT_EQ(RunCli("loaddata '" + map + "' --rpc FindPath --count 40 --seed 3 -o '" + again + "'")
                .exit_code,
            0);
  EXPECT_EQ(ReadJson(again), data);
}

TEST(LoadDataCliTest, EveryRpcGetsItsFieldsAndZonesStayLocal) {
  const std::string dir = TempDir("loaddata_rpcs");
  const std::string map = BuildTown(dir);
  const struct {
    const char* rpc;
    const char* fields[3];
  } kinds[] = {{"ValidateMove", {"start", "end", "max_distance"}},
               {"Raycast", {"start", "end", nullptr}},
               {"NearestPoint", {"position", nullptr, nullptr}},
               {"RandomPoint", {"center", "radius", nullptr}},
               {"FindDistanceToWall", {"position", "max_radius", nullptr}},
               {"FindPolygonsInCircle", {"center", "radius", nullptr}}};
  for (const auto& k : kinds) {
    const std::string out = dir + "/" + k.rpc + ".json";
    CliResult r = RunCli("loaddata '" + map + "' --rpc " + k.rpc + " --map-id zone1 --count 20 " +
                         "--zones 2 --zone-radius 15 -o '" + out + "'");
    ASSERT_EQ(r.exit_code, 0) << k.rpc << ": " << r.out;
    const Json data = ReadJson(out);
    ASSERT_EQ(data.size(), 20u) << k.rpc;
    for (const Json& req : data) {
      EXPECT_EQ(req["map_id"], "zone1");
      for (const char* f : k.fields) {
        if (f != nullptr) {
          EXPECT_TRUE(req.contains(f)) << k.rpc << " lacks " << f;
        }
      }
    }
    if (std::string(k.rpc) == "ValidateMove") {
      // Requests alternate between the two zones: even ones stay within 2 radii of each other.
      const Vec3 a = V(data[0]["start"]), b = V(data[2]["start"]);
      EXPECT_LE(std::hypot(a.x - b.x, a.z - b.z), 30.0f + 1e-3f);
    }
  }
}

TEST(LoadDataCliTest, BatchesHoldBatchSizeRequestsOfTheirSingleRpc) {
  const std::string dir = TempDir("loaddata_batch");
  const std::string map = BuildTown(dir);
  const std::string out = dir + "/batch.json";
  CliResult r = RunCli("loaddata '" + map + "' --rpc FindPathBatch --count 3 --batch-size 7 " +
                       "--max-path-distance 30 -o '" + out + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const Json data = ReadJson(out);
  ASSERT_EQ(data.size(), 3u);
  for (const Json& batch : data) {
    ASSERT_EQ(batch.size(), 1u) << "a batch message holds only `requests`";
    ASSERT_EQ(batch["requests"].size(), 7u);
    ExpectCompletePaths(map, batch["requests"]);
    for (const Json& req : batch["requests"]) {
      EXPECT_LE(std::hypot(req["start"]["x"].get<float>() - req["end"]["x"].get<float>(),
                           req["start"]["z"].get<float>() - req["end"]["z"].get<float>()),
                30.0f + 1e-3f);
    }
  }
  EXPECT_NE(data[0]["requests"][0], data[1]["requests"][0]);  // fresh draws per batch
  for (const char* rpc : {"ValidateMoveBatch", "RaycastBatch"}) {
    CliResult other = RunCli("loaddata '" + map + "' --rpc " + rpc + " --count 2 --batch-size 3");
    ASSERT_EQ(other.exit_code, 0) << other.out;
    const Json parsed = Json::parse(other.out);
    ASSERT_EQ(parsed.size(), 2u) << rpc;
    EXPECT_EQ(parsed[1]["requests"].size(), 3u) << rpc;
    EXPECT_TRUE(parsed[1]["requests"][2].contains("end")) << rpc;
  }
  CliResult too_big = RunCli("loaddata '" + map + "' --rpc FindPathBatch --batch-size 1025");
  EXPECT_EQ(too_big.exit_code, 2);
  EXPECT_THAT(too_big.out, HasSubstr("--batch-size"));
}

// --exact: every request asks for PATH_MODE_EXACT under a filter exact mode can answer on the
// town (one cost for its road, its ground and its links' areas), and exact mode finds each
// pair's path.
TEST(LoadDataCliTest, ExactRequestsAreAnsweredByExactMode) {
  const std::string dir = TempDir("loaddata_exact");
  const std::string map = BuildTown(dir);
  const std::string out = dir + "/exact.json";
  CliResult r =
      RunCli("loaddata '" + map +
             "' --rpc FindPath --exact --count 20 --max-path-distance 40 -o '" + out + "'");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const Json data = ReadJson(out);
  ASSERT_EQ(data.size(), 20u);
  auto loaded = LoadMapFile(map);
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  NavQuery q(*loaded);
  EXPECT_FALSE(CheckExactPathSupport(**loaded, QueryFilter((*loaded)->info())).ok())
      << "the town has a cheaper road, so the requests must carry a filter";
  PathOptions exact;
  exact.mode = PathMode::kExact;
  PathResult path;
  for (const Json& req : data) {
    ASSERT_EQ(req["options"]["mode"], "PATH_MODE_EXACT") << req.dump();
    QueryFilter filter((*loaded)->info());
    filter.set_area_mask(std::stoull(req["filter"]["area_mask"].get<std::string>()));
    for (const auto& [area, cost] : req["filter"]["area_costs"].items()) {
      filter.SetAreaCost(std::stoi(area), cost.get<float>());
    }
    ASSERT_TRUE(CheckExactPathSupport(**loaded, filter).ok()) << req.dump();
    ASSERT_TRUE(q.FindPath(V(req["start"]), V(req["end"]), filter, exact, &path).ok());
    EXPECT_EQ(path.status, QueryStatus::kComplete) << req.dump();
  }
  CliResult raycast = RunCli("loaddata '" + map + "' --rpc Raycast --exact");
  EXPECT_EQ(raycast.exit_code, 2);
  EXPECT_THAT(raycast.out, HasSubstr("--exact: only for FindPath"));
}

TEST(LoadDataCliTest, BadArgumentsSayWhatIsWrong) {
  const std::string dir = TempDir("loaddata_bad");
  const std::string map = BuildTown(dir);
  CliResult rpc = RunCli("loaddata '" + map + "' --rpc Teleport");
  EXPECT_EQ(rpc.exit_code, 2);
  EXPECT_THAT(rpc.out, HasSubstr("'Teleport' is not one of FindPath"));
  CliResult count = RunCli("loaddata '" + map + "' --count 0");
  EXPECT_EQ(count.exit_code, 2);
  EXPECT_THAT(count.out, HasSubstr("--count"));
  CliResult radius = RunCli("loaddata '" + map + "' --zones 3 --zone-radius -1");
  EXPECT_EQ(radius.exit_code, 2);
  EXPECT_THAT(radius.out, HasSubstr("--zone-radius"));
  CliResult missing = RunCli("loaddata '" + dir + "/nope.wmesh'");
  EXPECT_EQ(missing.exit_code, 2);
  const std::string junk = dir + "/junk.wmesh";
  std::ofstream(junk) << "not a map";
  CliResult bad = RunCli("loaddata '" + junk + "'");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_THAT(bad.out, HasSubstr("junk.wmesh"));
}

}  // namespace
}  // namespace waymesh::testing
