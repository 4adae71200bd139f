// --exact-landmarks (ServerConfig::exact_landmarks) over TCP: the server builds each map's exact
// landmark table at load and exact FindPath on the (paged) served map uses it: the same
// optimal lengths as without the table, with fewer interval nodes expanded. A map file that
// stores its table (`waymesh build --exact-landmarks`) is served with it, flag or not. And
// --exact-twin (ServerConfig::exact_twin): exact FindPath searches each map's plan twin and
// answers with the same lengths in fewer nodes; a twin the file stores (`waymesh build
// --exact-twin`) serves without the flag.

#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "test_server.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/plan_twin.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/format/map_tiles.h"

namespace waymesh::testing {
namespace {

// Pairs at least this far apart (plan view, metres): long enough for the straight-line bound
// to be loose round the town's buildings.
constexpr float kExactPairDistance = 80;
constexpr size_t kMaxPairs = 24;

struct ExactRun {
  std::vector<double> lengths;  // per pair; negative when the path is not complete
  std::vector<uint64_t> nodes;  // interval nodes expanded, per pair
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

// The town's bytes with a stored table of a few landmarks (fewer floods than the default).
const std::string& TownWithStoredTable() {
  static const std::string bytes = [] {
    std::string b = Town().bytes;
    const absl::Status s =
        AppendExactLandmarkSection(ExactLandmarkTable::Build(*Town().map, 4), &b);
    EXPECT_TRUE(s.ok()) << s;
    return b;
  }();
  return bytes;
}

// The town's bytes with its plan twin stored (`waymesh build --exact-twin`).
const std::string& TownWithStoredTwin() {
  static const std::string bytes = [] {
    std::string b = Town().bytes;
    absl::StatusOr<PlanTwin> twin = BuildPlanTwin(*Town().map);
    EXPECT_TRUE(twin.ok()) << twin.status();
    if (twin.ok()) {
      const absl::Status s = AppendPlanTwinSection(*twin, &b);
      EXPECT_TRUE(s.ok()) << s;
    }
    return b;
  }();
  return bytes;
}

// Serves `map_bytes` as the town with --exact-landmarks=`landmarks` (and --exact-twin=`twin`)
// and asks every pair in exact mode.
ExactRun AskExactPairs(bool landmarks, const std::string& map_bytes = Town().bytes,
                       bool twin = false) {
  TempDir maps;
  maps.Write("town.wmesh", map_bytes);
  server::ServerConfig config = TestConfig(maps.path());
  config.exact_landmarks = landmarks;
  config.exact_twin = twin;
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
    run.nodes.push_back(response.nodes_expanded());
  }
  return run;
}

// The nodes `run` expanded on the pairs both it and `reference` completed. Where the goal
// cannot be reached in full, the twin's best-effort path can graze a wall corner the map's walk
// stops at (twin_path.h): the map is then searched too, and both searches' nodes count.
uint64_t NodesOnCompletePairs(const ExactRun& run, const ExactRun& reference) {
  uint64_t sum = 0;
  for (size_t i = 0; i < std::min(run.lengths.size(), reference.lengths.size()); ++i) {
    if (run.lengths[i] >= 0 && reference.lengths[i] >= 0) sum += run.nodes[i];
  }
  return sum;
}

// How many pairs both runs completed, expecting the same statuses and lengths (1e-5).
int CompleteWithSameLengths(const ExactRun& run, const ExactRun& reference) {
  EXPECT_EQ(run.lengths.size(), reference.lengths.size());
  int complete = 0;
  for (size_t i = 0; i < std::min(run.lengths.size(), reference.lengths.size()); ++i) {
    EXPECT_EQ(run.lengths[i] >= 0, reference.lengths[i] >= 0) << "pair " << i;
    if (run.lengths[i] < 0 || reference.lengths[i] < 0) continue;
    EXPECT_NEAR(run.lengths[i], reference.lengths[i], 1e-5 * reference.lengths[i]) << "pair " << i;
    ++complete;
  }
  return complete;
}

// The flag's table steers the search (other nodes) to the same lengths. How much it saves is
// the benchmarks' business: since the exact search joins abutting intervals (session 30) the
// table built at load expands about as many nodes as none on these 24 probe pairs of the 200 m
// town (41 700 against 40 685), while it cuts them 3.8x on random pairs of the 256 m town
// (bench/vs_detour, docs/PERFORMANCE.md).
TEST(ExactLandmarksFlagTest, TheServedMapsTableSteersTheSearchAndKeepsLengths) {
  ASSERT_GE(Town().map->PolygonBases().back(), 1024u);  // large enough to get a table
  const ExactRun without = AskExactPairs(false);
  const ExactRun with = AskExactPairs(true);
  ASSERT_GE(CompleteWithSameLengths(with, without), 10);
  EXPECT_NE(with.nodes, without.nodes);  // the same search would mean the table went unused
}

// The stored table serves without the flag, and with it (the file's table comes first: no
// floods at load).
TEST(ExactLandmarksFlagTest, AStoredTableServesWithOrWithoutTheFlag) {
  const ExactRun without = AskExactPairs(false);
  const ExactRun stored = AskExactPairs(false, TownWithStoredTable());
  const ExactRun flagged = AskExactPairs(true, TownWithStoredTable());
  ASSERT_EQ(stored.lengths.size(), without.lengths.size());
  ASSERT_EQ(flagged.lengths.size(), without.lengths.size());
  for (size_t i = 0; i < without.lengths.size(); ++i) {
    ASSERT_EQ(stored.lengths[i] >= 0, without.lengths[i] >= 0) << "pair " << i;
    if (without.lengths[i] < 0) continue;
    EXPECT_NEAR(stored.lengths[i], without.lengths[i], 1e-5 * without.lengths[i]) << "pair " << i;
    EXPECT_EQ(flagged.lengths[i], stored.lengths[i]) << "pair " << i;
  }
  EXPECT_LT(NodesOnCompletePairs(stored, without), NodesOnCompletePairs(without, stored));
  EXPECT_EQ(flagged.nodes, stored.nodes);  // the same (stored, 4-landmark) table
}

// Through the twin the served (paged) map answers every pair with the same length, expanding
// fewer interval nodes over the twin's large polygons on the pairs both complete (how much
// faster it is, is bench/vs_detour's business).
TEST(ExactTwinFlagTest, TheServedMapsTwinKeepsLengthsInFewerNodes) {
  const ExactRun without = AskExactPairs(false);
  const ExactRun twin = AskExactPairs(false, Town().bytes, /*twin=*/true);
  ASSERT_GE(CompleteWithSameLengths(twin, without), 10);
  EXPECT_LT(NodesOnCompletePairs(twin, without), NodesOnCompletePairs(without, twin));
}

// A twin the file stores serves without the flag: the answers and the very search of the twin
// the flag builds at load.
TEST(ExactTwinFlagTest, AStoredTwinServesWithoutTheFlag) {
  const ExactRun built = AskExactPairs(false, Town().bytes, /*twin=*/true);
  const ExactRun stored = AskExactPairs(false, TownWithStoredTwin());
  ASSERT_GE(CompleteWithSameLengths(stored, built), 10);
  EXPECT_EQ(stored.nodes, built.nodes);
}

}  // namespace
}  // namespace waymesh::testing
