// Exact paths (PathMode::kExact) against the brute-force visibility-graph oracle
// (visibility_graph_oracle.h, which shares no code with core): random pairs, starts on mesh
// vertices, ends on tile seams and the degenerate Polyanya meshes (collinear vertices, rotated
// copies, ambiguous corners) must all give the oracle's length.

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "polyanya_data.h"
#include "support/map_builder.h"
#include "support/plan_length.h"
#include "support/query_points.h"
#include "support/test_data.h"
#include "visibility_graph_oracle.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {
namespace {

using testing::VisibilityGraphOracle;

// The oracle rounds the ends to 1 µm and sums in double; exact mode works in double from float
// geometry: lengths agree to this much (metres) plus kAgreeRelative of the length.
constexpr double kAgreeAbsolute = 1e-5;
constexpr double kAgreeRelative = 1e-6;

PathOptions ExactMode() {
  PathOptions po;
  po.mode = PathMode::kExact;
  po.half_extents = {0.5f, 2, 0.5f};
  return po;
}

// Checks one exact path between surface points a and b against the oracle; returns whether
// the oracle found a path. With `pinches` the mesh has polygons that touch at a vertex only:
// the oracle's region passes through such a point, the search (following adjacency, like
// Polyanya's) does not, so the oracle is only a lower bound, and the approximate mode an
// upper one.
bool ExpectOracleLength(NavQuery& q, const VisibilityGraphOracle& oracle, const SurfacePoint& a,
                        const SurfacePoint& b, const std::string& what, bool pinches = false) {
  PathResult r;
  EXPECT_TRUE(q.FindPath(a, b, QueryFilter(), ExactMode(), &r).ok()) << what;
  const auto truth = oracle.ShortestPath({a.pos.x, a.pos.z}, {b.pos.x, b.pos.z});
  EXPECT_TRUE(truth.ok()) << what << ": " << truth.status();
  if (!truth.ok()) return false;
  if (!truth->has_value()) {
    EXPECT_EQ(r.status, QueryStatus::kNoPath) << what;
    return false;
  }
  if (pinches) {
    if (r.status != QueryStatus::kComplete) return true;
    EXPECT_GE(testing::PlanLength(r), **truth - kAgreeAbsolute) << what;
    PathOptions approximate = ExactMode();
    approximate.mode = PathMode::kApproximate;
    PathResult ar;
    EXPECT_TRUE(q.FindPath(a, b, QueryFilter(), approximate, &ar).ok());
    EXPECT_EQ(ar.status, QueryStatus::kComplete) << what;
    EXPECT_LE(r.length, ar.length + kAgreeAbsolute) << what;
    return true;
  }
  EXPECT_EQ(r.status, QueryStatus::kComplete) << what;
  EXPECT_NEAR(testing::PlanLength(r), **truth, kAgreeAbsolute + kAgreeRelative * **truth)
      << what << " (" << a.pos.x << ", " << a.pos.z << ") -> (" << b.pos.x << ", " << b.pos.z
      << ")";
  return true;
}

void RandomPairs(const std::shared_ptr<const NavMap>& map, int pairs, uint64_t seed,
                 const std::string& name) {
  const VisibilityGraphOracle oracle(testing::PlanFreeRegion(*map, {}));
  NavQuery q(map);
  std::mt19937_64 rng(seed);
  int found = 0;
  for (int i = 0; i < pairs; ++i) {
    const auto a = testing::RandomOnMap(q, QueryFilter(), rng);
    const auto b = testing::RandomOnMap(q, QueryFilter(), rng);
    ASSERT_TRUE(a && b);
    found += ExpectOracleLength(q, oracle, *a, *b, name + " pair " + std::to_string(i));
  }
  EXPECT_GT(found, pairs / 4) << name;
}

// Arena in 8 m tiles: many paths cross tile seams.
absl::StatusOr<std::shared_ptr<const NavMap>> ArenaWithSmallTiles() {
  RepairOptions tiled;
  tiled.tile_size = 8;
  return testing::CachedMapFromFile(testing::SharedData("polyanya/meshes/arena-merged.mesh"),
                                    tiled);
}

TEST(ExactOracleTest, RandomPairsOnArenaWithSmallTiles) {
  auto map = ArenaWithSmallTiles();
  ASSERT_TRUE(map.ok()) << map.status();
  ASSERT_GT((*map)->tile_count(), 4u);
  RandomPairs(*map, 300, 11, "arena-merged");
}

TEST(ExactOracleTest, RandomPairsOnAUnityExport) {
  auto map = testing::CachedMapFromFile(testing::SharedData("unity/1000.navmesh"));
  ASSERT_TRUE(map.ok()) << map.status();
  RandomPairs(*map, 200, 12, "unity 1000");
}

TEST(ExactOracleTest, RandomPairsOnHardMesh) {
  auto map = testing::BuildMapFromFile(testing::SharedData("polyanya/degenerate/hard.mesh"),
                                       RepairOptions{.merge = false});
  ASSERT_TRUE(map.ok()) << map.status();
  RandomPairs(*map, 200, 13, "hard");
}

TEST(ExactOracleTest, StartsOnMeshVerticesAndEndsOnTileSeams) {
  auto map = ArenaWithSmallTiles();
  ASSERT_TRUE(map.ok()) << map.status();
  const VisibilityGraphOracle oracle(testing::PlanFreeRegion(**map, {}));
  NavQuery q(*map);
  std::mt19937_64 rng(14);
  int checked = 0;
  for (uint32_t t = 0; t < (*map)->tile_count(); ++t) {
    const TileView& tile = (*map)->tile(t);
    for (uint32_t v = 0; v < tile.vertices.size(); v += 3) {
      const auto a = testing::Nearest(q, tile.vertices[v], {0.01f, 1, 0.01f}, QueryFilter());
      const auto b = testing::RandomOnMap(q, QueryFilter(), rng);
      ASSERT_TRUE(a && b);
      ExpectOracleLength(q, oracle, *a, *b, "vertex start");
      ExpectOracleLength(q, oracle, *b, *a, "vertex goal");
      ++checked;
    }
  }
  std::uniform_real_distribution<float> u(0, 1);
  for (int i = 0; i < 100; ++i) {
    // x on a seam between tiles (multiples of 8), z anywhere.
    const Vec3 seam{8.0f * float(1 + i % 5), 0, 48 * u(rng)};
    const auto a = testing::Nearest(q, seam, {0.01f, 1, 0.01f}, QueryFilter());
    if (!a || a->pos.x != seam.x) continue;
    const auto b = testing::RandomOnMap(q, QueryFilter(), rng);
    ASSERT_TRUE(b);
    ExpectOracleLength(q, oracle, *a, *b, "seam start");
    ++checked;
  }
  EXPECT_GT(checked, 50);
}

class ExactDegenerateTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ExactDegenerateTest, ScenarioAndRandomPathsMatchTheOracle) {
  const std::string base = testing::SharedData("polyanya/degenerate/" + GetParam());
  // These two have polygons touching at a single vertex (see ExpectOracleLength).
  const bool pinches = GetParam() == "bad-ambig" || GetParam() == "bad-collinear";
  for (bool merge : {false, true}) {
    SCOPED_TRACE(merge ? "merged" : "as in the file");
    auto map = testing::BuildMapFromFile(base + ".mesh", RepairOptions{.merge = merge});
    ASSERT_TRUE(map.ok()) << map.status();
    const VisibilityGraphOracle oracle(testing::PlanFreeRegion(**map, {}));
    NavQuery q(*map);
    for (const testing::ExpectedQuery& e : testing::ReadScenFile(base + ".scen")) {
      const auto a = testing::Nearest(q, e.start, {0.1f, 1, 0.1f}, QueryFilter());
      const auto b = testing::Nearest(q, e.goal, {0.1f, 1, 0.1f}, QueryFilter());
      ASSERT_TRUE(a && b);
      ExpectOracleLength(q, oracle, *a, *b, GetParam() + " scenario", pinches);
      PathResult r;
      ASSERT_TRUE(q.FindPath(*a, *b, QueryFilter(), ExactMode(), &r).ok());
      if (e.length > 0) {
        // Published for the rounded points (4 for a start 0.01 off a corner, optimum 3.9801).
        EXPECT_NEAR(r.length, e.length, 1e-2 * e.length) << GetParam();
      }
    }
    std::mt19937_64 rng(15);
    for (int i = 0; i < 100; ++i) {
      const auto a = testing::RandomOnMap(q, QueryFilter(), rng);
      const auto b = testing::RandomOnMap(q, QueryFilter(), rng);
      ASSERT_TRUE(a && b);
      ExpectOracleLength(q, oracle, *a, *b, GetParam() + " random", pinches);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Polyanya, ExactDegenerateTest,
                         ::testing::ValuesIn(testing::kDegenerateMeshes),
                         testing::DegenerateTestName);

}  // namespace
}  // namespace waymesh
