// --exact-landmarks (ServerConfig::exact_landmarks) over TCP: the server builds each map's exact
// landmark table at load and exact FindPath on the (paged) served map uses it: the same
// optimal lengths as without the table, with fewer interval nodes expanded.

#include <cmath>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "test_server.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/query_filter.h"

namespace waymesh::testing {
namespace {

// Pairs at least this far apart (plan view, metres): long enough for the straight-line bound
// to be loose round the town's buildings.
constexpr float kExactPairDistance = 80;
constexpr size_t kMaxPairs = 24;

struct ExactRun {
  std::vector<double> lengths;  // per pair; negative when the path is not complete
  uint64_t nodes = 0;           // interval nodes expanded, all pairs
};

std::vector<std::pair<Vec3, Vec3>> FarPairs(const DemoTown& town) {
  std::vector<std::pair<Vec3, Vec3>> pairs;
  for (const DemoProbe& a : town.truth.probes) {
    for (const DemoProbe& b : town.truth.probes) {
      if (pairs.size() == kMaxPairs) return pairs;
      if (std::hypot(a.position.x - b.position.x, a.position.z - b.position.z) >=
          kExactPairDistance) {
        pairs.emplace_back(a.position, b.position);
      }
    }
  }
  return pairs;
}

// What exact mode takes on the town (one cost everywhere), without the off-mesh links' areas:
// the table is used only where no allowed link is cheaper than its span.
v1::QueryFilter SurfaceOnlyExactFilter(const NavMap& map) {
  const QueryFilter ready = ExactReadyFilter(map);
  v1::QueryFilter filter;
  uint64_t mask = ready.area_mask();
  for (uint32_t a = 0; a < kMaxAreas; ++a) {
    (*filter.mutable_area_costs())[a] = ready.Cost(a);
    if (std::isfinite(map.digest().link_cost_per_metre[a])) mask &= ~(uint64_t{1} << a);
  }
  filter.set_area_mask(mask);
  return filter;
}

// Serves the demo town with --exact-landmarks=`landmarks` and asks every pair in exact mode.
ExactRun AskExactPairs(bool landmarks) {
  TempDir maps;
  maps.Write("town.wmesh", Town().bytes);
  server::ServerConfig config = TestConfig(maps.path());
  config.exact_landmarks = landmarks;
  ExactRun run;
  std::unique_ptr<server::NavigationServer> server = StartServer(config);
  if (server == nullptr) return run;
  auto stub = v1::NavigationService::NewStub(Dial(*server));
  const v1::QueryFilter filter = SurfaceOnlyExactFilter(*Town().map);
  for (const auto& [start, end] : FarPairs(Town())) {
    v1::FindPathRequest request = TownPathRequest(start, end);
    request.mutable_options()->set_mode(v1::PATH_MODE_EXACT);
    *request.mutable_filter() = filter;
    v1::FindPathResponse response;
    const grpc::Status s = Unary(*stub, &NavigationStub::FindPath, request, &response);
    EXPECT_TRUE(s.ok()) << s.error_message();
    run.lengths.push_back(response.status() == v1::PATH_STATUS_COMPLETE ? response.length() : -1);
    run.nodes += response.nodes_expanded();
  }
  return run;
}

TEST(ExactLandmarksFlagTest, TheServedMapsTableCutsNodesAndKeepsLengths) {
  ASSERT_GE(Town().map->PolygonBases().back(), 1024u);  // large enough to get a table
  const ExactRun without = AskExactPairs(false);
  const ExactRun with = AskExactPairs(true);
  ASSERT_EQ(with.lengths.size(), without.lengths.size());
  int complete = 0;
  for (size_t i = 0; i < without.lengths.size(); ++i) {
    ASSERT_EQ(with.lengths[i] >= 0, without.lengths[i] >= 0) << "pair " << i;
    if (without.lengths[i] < 0) continue;
    EXPECT_NEAR(with.lengths[i], without.lengths[i], 1e-5 * without.lengths[i]) << "pair " << i;
    ++complete;
  }
  ASSERT_GE(complete, 10);
  EXPECT_LT(with.nodes, without.nodes);
}

}  // namespace
}  // namespace waymesh::testing
