// --path-hierarchy (ServerConfig::path_hierarchy) over TCP: off, long FindPaths on the demo town
// are still answered, all by the plain search; on, the map's cluster graph answers them, and
// waymesh_path_search_total{kind} on the metrics port says which search ran.

#include <httplib.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "exposition_parser.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "test_server.h"

namespace waymesh::testing {
namespace {

// Probe pairs at least this far apart (plan view, metres): past the hierarchy's 50 m minimum,
// so any pair whose clusters (32 m tiles) are not neighbours may be searched over the graph.
constexpr float kLongPairDistance = 60;
// Mean hierarchical / plain length may exceed 1 by this much (as in the core's hierarchy tests).
constexpr double kMeanLengthTolerance = 0.01;

struct SearchCounts {
  double plain = -1;
  double hierarchical = -1;
};

struct LongPathRun {
  int searched = 0;             // answers that reached the search (not off mesh)
  std::vector<double> lengths;  // per pair; negative when the path is not complete
  SearchCounts counts;          // the server's waymesh_path_search_total afterwards
};

// A multi-tile demo town (64 clusters of one 32 m tile) that the tile budget tests use too.
const DemoTown& TiledTown() { return Town(200, 7, /*tile_size=*/32); }

std::vector<std::pair<Vec3, Vec3>> LongPairs(const DemoTown& town) {
  std::vector<std::pair<Vec3, Vec3>> pairs;
  for (const DemoProbe& a : town.truth.probes) {
    for (const DemoProbe& b : town.truth.probes) {
      const float dx = a.position.x - b.position.x;
      const float dz = a.position.z - b.position.z;
      if (std::sqrt(dx * dx + dz * dz) >= kLongPairDistance) {
        pairs.emplace_back(a.position, b.position);
      }
    }
  }
  return pairs;
}

SearchCounts ScrapeSearchCounts(const server::NavigationServer& server) {
  httplib::Client client("127.0.0.1", server.metrics_port());
  httplib::Result res = client.Get("/metrics");
  SearchCounts counts;
  if (!res || res->status != 200) {
    ADD_FAILURE() << "GET /metrics failed";
    return counts;
  }
  absl::StatusOr<Exposition> parsed = ParseExposition(res->body);
  if (!parsed.ok()) {
    ADD_FAILURE() << parsed.status();
    return counts;
  }
  counts.plain = FindSample(*parsed, "waymesh_path_search_total", {{"kind", "plain"}}).value_or(-1);
  counts.hierarchical =
      FindSample(*parsed, "waymesh_path_search_total", {{"kind", "hierarchical"}}).value_or(-1);
  return counts;
}

// Serves the tiled town with --path-hierarchy=`hierarchy` and asks every long pair over TCP.
LongPathRun AskLongPairs(bool hierarchy) {
  TempDir maps;
  maps.Write("town.wmesh", TiledTown().bytes);
  server::ServerConfig config = TestConfig(maps.path());
  config.metrics_address = "127.0.0.1";
  config.metrics_port = 0;
  config.path_hierarchy = hierarchy;
  LongPathRun run;
  std::unique_ptr<server::NavigationServer> server = StartServer(config);
  if (server == nullptr) return run;
  auto stub = v1::NavigationService::NewStub(Dial(*server));
  for (const auto& [start, end] : LongPairs(TiledTown())) {
    v1::FindPathResponse response;
    const grpc::Status s =
        Unary(*stub, &NavigationStub::FindPath, TownPathRequest(start, end), &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    const v1::PathStatus status = response.status();
    if (status != v1::PATH_STATUS_START_OFF_MESH && status != v1::PATH_STATUS_END_OFF_MESH) {
      ++run.searched;
    }
    run.lengths.push_back(status == v1::PATH_STATUS_COMPLETE ? response.length() : -1);
  }
  run.counts = ScrapeSearchCounts(*server);
  return run;
}

TEST(PathHierarchyFlagTest, OffSearchesPlainlyOnSearchesOverTheClusterGraph) {
  ASSERT_GE(TiledTown().map->tile_count(), 16u);
  const LongPathRun off = AskLongPairs(false);
  const LongPathRun on = AskLongPairs(true);
  ASSERT_GE(off.searched, 10);  // the town's probes give a few dozen
  ASSERT_EQ(on.searched, off.searched);

  // Off: every search plain, none guided, and the long paths still found.
  EXPECT_EQ(off.counts.plain, off.searched);
  EXPECT_EQ(off.counts.hierarchical, 0);
  // On: the same calls, some of them (those not in neighbouring clusters) over the graph.
  EXPECT_GE(on.counts.hierarchical, 1);
  EXPECT_EQ(on.counts.plain + on.counts.hierarchical, on.searched);

  // The same pairs complete both ways, and the graph's paths are as short on average.
  ASSERT_EQ(on.lengths.size(), off.lengths.size());
  double ratio_sum = 0;
  int complete = 0;
  for (size_t i = 0; i < off.lengths.size(); ++i) {
    EXPECT_EQ(on.lengths[i] >= 0, off.lengths[i] >= 0) << "pair " << i;
    if (on.lengths[i] > 0 && off.lengths[i] > 0) {
      ratio_sum += on.lengths[i] / off.lengths[i];
      ++complete;
    }
  }
  ASSERT_GE(complete, 10);
  EXPECT_LE(ratio_sum / complete, 1 + kMeanLengthTolerance);
}

}  // namespace
}  // namespace waymesh::testing
