// Path quality and validity on the Polyanya meshes against published optimal lengths: every
// path stays on the walkable surface (checked by an oracle over the source polygons, not the
// compiled map), is never shorter than the optimum, and is close to it on average.

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "mesh_oracle.h"
#include "polyanya_data.h"
#include "support/map_builder.h"
#include "support/query_points.h"
#include "support/sanitizer.h"
#include "support/test_data.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/import/importers.h"

namespace waymesh {
namespace {

using testing::ExpectedQuery;
using testing::MeshOracle;

// Sanitizers are ~5x slower: sample the big maps.
constexpr size_t kSanitizerStride = testing::kUnderSanitizer ? 7 : 1;

// Distance (mesh units) under which a path may touch an obstacle edge or corner: float
// rounding of coordinates up to ~1000.
constexpr float kTouch = 2e-3f;
// Spacing of the coverage samples along a segment (mesh units). The obstacle-crossing check
// is the exact test; samples catch a segment that starts or ends off the mesh.
constexpr float kSampleStep = 1.0f;

// Empty when every segment of the path stays on the walkable surface; else the first problem.
std::string PathProblem(const PathResult& r, const MeshOracle& oracle) {
  for (size_t i = 1; i < r.waypoints.size(); ++i) {
    const Vec3 a = r.waypoints[i - 1].pos, b = r.waypoints[i].pos;
    if (oracle.CrossesObstacle(a, b, kTouch)) {
      return "segment " + std::to_string(i) + " crosses an obstacle edge";
    }
    const int samples = int(DistanceXZ(a, b) / kSampleStep) + 1;
    for (int s = 0; s <= samples; ++s) {
      if (!oracle.Covered(Lerp(a, b, float(s) / samples), kTouch, 1e-3f)) {
        return "segment " + std::to_string(i) + " leaves the mesh";
      }
    }
  }
  return "";
}

struct QualityCase {
  std::string name;
  std::string mesh;      // under polyanya/meshes
  std::string expected;  // under polyanya/expected
  bool merge;
  size_t stride;  // every n-th query (keeps the suite fast)
};

class PathQualityTest : public ::testing::TestWithParam<QualityCase> {};

TEST_P(PathQualityTest, ValidNeverBelowOptimumAndNearOptimal) {
  const QualityCase& c = GetParam();
  const std::string mesh_path = testing::SharedData("polyanya/meshes/" + c.mesh);
  RepairOptions options;
  options.merge = c.merge;
  auto map = testing::CachedMapFromFile(mesh_path, options);
  ASSERT_TRUE(map.ok()) << map.status();
  auto source = ImportFile(mesh_path);
  ASSERT_TRUE(source.ok()) << source.status();
  const MeshOracle oracle(*source);
  const auto queries =
      testing::ReadExpectedFile(testing::SharedData("polyanya/expected/" + c.expected));
  ASSERT_GT(queries.size(), 100u);

  NavQuery q(*map);
  PathOptions po;
  po.half_extents = {0.5f, 1, 0.5f};
  PathResult r;
  double ratio_sum = 0, worst = 0;
  size_t n = 0;
  const size_t stride = c.stride * kSanitizerStride;
  for (size_t i = 0; i < queries.size(); i += stride) {
    const ExpectedQuery& e = queries[i];
    ASSERT_TRUE(q.FindPath(e.start, e.goal, QueryFilter(), po, &r).ok());
    ASSERT_EQ(r.status, QueryStatus::kComplete) << "query " << i;
    ASSERT_GE(r.waypoints.size(), 1u);
    EXPECT_NEAR(r.waypoints.front().pos.x, e.start.x, 1e-4);
    EXPECT_NEAR(r.waypoints.back().pos.z, e.goal.z, 1e-4);
    EXPECT_GE(r.length, e.length * (1 - 1e-5)) << "query " << i << " shorter than the optimum";
    const std::string problem = PathProblem(r, oracle);
    EXPECT_EQ(problem, "") << "query " << i;
    const double ratio = e.length > 0 ? r.length / e.length : 1.0;
    ratio_sum += ratio;
    worst = std::max(worst, ratio);
    ++n;
  }
  const double mean = ratio_sum / n;
  EXPECT_LE(mean, 1.01) << c.name;
  EXPECT_LE(worst, 1.25) << c.name;
  std::cout << c.name << ": " << n << " queries, mean ratio " << mean << ", worst " << worst
            << "\n";
}

INSTANTIATE_TEST_SUITE_P(
    Polyanya, PathQualityTest,
    ::testing::Values(
        QualityCase{"arena", "arena.mesh", "arena_euclid_expected.csv", false, 1},
        QualityCase{"arena_merged", "arena-merged.mesh", "arena_merged_euclid_expected.csv", false,
                    1},
        QualityCase{"arena_remerged", "arena.mesh", "arena_euclid_expected.csv", true, 1},
        QualityCase{"aurora", "aurora.mesh", "aurora_euclid_expected.csv", false, 1},
        QualityCase{"aurora_merged", "aurora-merged.mesh", "aurora_euclid_expected.csv", false, 1},
        QualityCase{"aurora_remerged", "aurora.mesh", "aurora_euclid_expected.csv", true, 3}),
    [](const auto& info) { return info.param.name; });

// The tiny degenerate meshes: collinear vertices, rotated copies, ambiguous corners.
class DegenerateMeshTest : public ::testing::TestWithParam<std::string> {};

TEST_P(DegenerateMeshTest, ScenarioPathsAreValidAndNearOptimal) {
  const std::string base = testing::SharedData("polyanya/degenerate/" + GetParam());
  for (bool merge : {false, true}) {
    RepairOptions options;
    options.merge = merge;
    auto map = testing::BuildMapFromFile(base + ".mesh", options);
    ASSERT_TRUE(map.ok()) << map.status();
    auto source = ImportFile(base + ".mesh");
    ASSERT_TRUE(source.ok());
    const MeshOracle oracle(*source);
    NavQuery q(*map);
    PathOptions po;
    po.half_extents = {0.1f, 1, 0.1f};
    PathResult r;
    const auto queries = testing::ReadScenFile(base + ".scen");
    ASSERT_FALSE(queries.empty());
    for (const ExpectedQuery& e : queries) {
      ASSERT_TRUE(q.FindPath(e.start, e.goal, QueryFilter(), po, &r).ok());
      if (e.length <= 0) continue;  // the scenario marks no answer (start on a vertex)
      ASSERT_EQ(r.status, QueryStatus::kComplete) << GetParam();
      // Scenario lengths are those of the rounded points (e.g. 4 for a start 0.01 off a
      // corner, true optimum 3.9801): a loose lower bound only.
      EXPECT_GE(r.length, e.length * (1 - 1e-2)) << GetParam();
      EXPECT_LE(r.length, e.length * 1.25) << GetParam();
      EXPECT_EQ(PathProblem(r, oracle), "") << GetParam();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Polyanya, DegenerateMeshTest,
                         ::testing::ValuesIn(testing::kDegenerateMeshes),
                         testing::DegenerateTestName);

// hard.mesh has no scenario: every pair of vertices-near points gets a valid path.
TEST(DegenerateMeshTest, HardMeshRandomPairsAreValid) {
  const std::string path = testing::SharedData("polyanya/degenerate/hard.mesh");
  auto map = testing::BuildMapFromFile(path, RepairOptions{.merge = false});
  ASSERT_TRUE(map.ok()) << map.status();
  auto source = ImportFile(path);
  ASSERT_TRUE(source.ok());
  const MeshOracle oracle(*source);
  NavQuery q(*map);
  std::mt19937_64 rng(3);
  PathResult r;
  int complete = 0;
  for (int i = 0; i < 200; ++i) {
    auto a = testing::RandomOnMap(q, QueryFilter(), rng);
    auto b = testing::RandomOnMap(q, QueryFilter(), rng);
    ASSERT_TRUE(a && b);
    ASSERT_TRUE(q.FindPath(*a, *b, QueryFilter(), {}, &r).ok());
    if (r.status != QueryStatus::kComplete) {
      EXPECT_EQ(r.status, QueryStatus::kNoPath);
      continue;
    }
    ++complete;
    EXPECT_GE(r.length, DistanceXZ(a->pos, b->pos) * (1 - 1e-5));
    EXPECT_EQ(PathProblem(r, oracle), "") << i;
  }
  EXPECT_GT(complete, 50);
}

}  // namespace
}  // namespace waymesh
