// A multi-tile town served under a tile budget far below its size: tiles are evicted while
// calls run, and every answer is the same as from a server that keeps everything loaded.

#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "test_server.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/server/proto_conversion.h"

namespace waymesh::testing {
namespace {

std::vector<std::string> AskAll(const server::NavigationServer& server, const DemoTown& town) {
  auto stub = v1::NavigationService::NewStub(Dial(server));
  std::vector<std::string> answers;
  const auto& probes = town.truth.probes;
  for (size_t i = 0; i < probes.size(); ++i) {
    for (size_t j = i + 1; j < probes.size(); j += 3) {
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      v1::FindPathResponse response;
      const grpc::Status s =
          stub->FindPath(&ctx, TownPathRequest(probes[i].position, probes[j].position), &response);
      answers.push_back(s.ok() ? response.SerializeAsString() : "error " + s.error_message());
    }
  }
  return answers;
}

TEST(TileBudgetTest, SmallBudgetEvictsYetAnswersLikeAFullyLoadedServer) {
  const DemoTown& town = Town(200, 7, /*tile_size=*/32);
  ASSERT_GT(town.map->tile_count(), 12u);
  TempDir maps;
  maps.Write("town.wmesh", town.bytes);
  server::ServerConfig full_config = TestConfig(maps.path());
  full_config.tile_cache_bytes = uint64_t{1} << 30;
  server::ServerConfig small_config = TestConfig(maps.path());
  small_config.tile_cache_bytes = town.bytes.size() / 8;
  std::unique_ptr<server::NavigationServer> full = StartServer(full_config);
  std::unique_ptr<server::NavigationServer> small = StartServer(small_config);
  ASSERT_NE(full, nullptr);
  ASSERT_NE(small, nullptr);

  const std::vector<std::string> want = AskAll(*full, town);
  std::vector<std::string> got_a, got_b;
  // Two clients at once, so evictions happen while other queries hold tiles.
  std::thread other([&] { got_b = AskAll(*small, town); });
  got_a = AskAll(*small, town);
  other.join();
  ASSERT_EQ(got_a.size(), want.size());
  ASSERT_EQ(got_b.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(got_a[i], want[i]) << "query " << i;
    EXPECT_EQ(got_b[i], want[i]) << "query " << i;
  }
  EXPECT_GT(small->maps().stats().evictions, 0u);
  EXPECT_LE(small->maps().stats().resident_bytes, town.bytes.size());
  EXPECT_EQ(full->maps().stats().evictions, 0u);
}

TEST(TileBudgetTest, ServedPathsEqualTheResidentMapsPaths) {
  // The server serves maps paged (with the landmark table built at load); `waymesh path` and
  // embedded users query the same file resident. Both must give the same path.
  const DemoTown& town = Town(200, 7, /*tile_size=*/32);
  TempDir maps;
  maps.Write("town.wmesh", town.bytes);
  server::ServerConfig config = TestConfig(maps.path());
  config.tile_cache_bytes = town.bytes.size() / 4;
  std::unique_ptr<server::NavigationServer> server = StartServer(config);
  ASSERT_NE(server, nullptr);
  auto stub = v1::NavigationService::NewStub(Dial(*server));
  NavQuery resident(town.map);
  // What the server applies when a request names no filter: the map's own area costs.
  const QueryFilter filter = server::ToQueryFilter(v1::QueryFilter(), town.map->info());
  PathResult want;
  const auto& probes = town.truth.probes;
  int compared = 0;
  for (size_t i = 0; i < probes.size(); ++i) {
    for (size_t j = 0; j < probes.size(); ++j) {
      if (i == j) continue;
      ASSERT_TRUE(
          resident.FindPath(probes[i].position, probes[j].position, filter, {}, &want).ok());
      grpc::ClientContext ctx;
      SetDeadline(&ctx);
      v1::FindPathResponse got;
      ASSERT_TRUE(
          stub->FindPath(&ctx, TownPathRequest(probes[i].position, probes[j].position), &got).ok());
      ASSERT_EQ(v1::PathStatus_Name(got.status()),
                "PATH_STATUS_" + std::string(QueryStatusName(want.status)))
          << probes[i].name << " -> " << probes[j].name;
      EXPECT_NEAR(got.length(), want.length, 1e-3) << probes[i].name << " -> " << probes[j].name;
      EXPECT_EQ(size_t(got.waypoints_size()), want.waypoints.size());
      ++compared;
    }
  }
  EXPECT_GT(compared, 50);
}

}  // namespace
}  // namespace waymesh::testing
