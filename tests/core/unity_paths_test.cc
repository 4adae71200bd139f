// Paths on real Unity exports: any two points of one island are joined by a complete path that
// stays on the source triangles; points of islands in different groups get NO_PATH at once.

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "mesh_oracle.h"
#include "support/map_builder.h"
#include "support/query_points.h"
#include "support/test_data.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/import/importers.h"

namespace waymesh {
namespace {

// Plan distance within which a path point counts as on a source triangle: the weld tolerance.
constexpr float kPlanTolerance = 0.02f;
// Samples follow the surface under the path: between two samples kUnitySampleStep apart it may
// rise or fall at most this much (45 degree slopes, 0.4 m steps).
constexpr float kClimb = 0.6f;
constexpr float kUnitySampleStep = 0.1f;

// Empty when the plan view of the path stays on one connected source surface from its first
// waypoint; else where it leaves.
std::string UnityPathProblem(const PathResult& r, const testing::MeshOracle& oracle) {
  if (r.waypoints.empty()) return "no waypoints";
  float y = r.waypoints[0].pos.y;
  for (size_t k = 1; k < r.waypoints.size(); ++k) {
    const Vec3 p0 = r.waypoints[k - 1].pos, p1 = r.waypoints[k].pos;
    const int n = int(DistanceXZ(p0, p1) / kUnitySampleStep) + 1;
    for (int s = 0; s <= n; ++s) {
      const Vec3 p = Lerp(p0, p1, float(s) / n);
      const auto h = oracle.SurfaceNear(p, kPlanTolerance, y, kClimb);
      if (!h) {
        return "segment " + std::to_string(k) + " leaves the surface at (" + std::to_string(p.x) +
               ", " + std::to_string(y) + ", " + std::to_string(p.z) + ")";
      }
      y = *h;
    }
    // The waypoint itself must be on the floor the walk followed.
    if (std::fabs(y - p1.y) > kClimb) return "waypoint " + std::to_string(k) + " on another floor";
  }
  return "";
}

class UnityPathsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(UnityPathsTest, PairsInOneIslandGetCompleteValidPaths) {
  const std::string path = testing::SharedData("unity/" + GetParam());
  auto map = testing::CachedMapFromFile(path);
  ASSERT_TRUE(map.ok()) << map.status();
  auto source = ImportFile(path);
  ASSERT_TRUE(source.ok()) << source.status();
  const testing::MeshOracle oracle(*source);
  NavQuery q(*map);
  std::mt19937_64 rng(11);
  const auto& islands = (*map)->info().islands;
  ASSERT_FALSE(islands.empty());
  PathResult r;
  int checked = 0;
  for (uint32_t island = 0; island < islands.size(); ++island) {
    const int pairs = islands[island].polygons > 4 ? 25 : 3;
    for (int i = 0; i < pairs; ++i) {
      auto a = testing::RandomOnIsland(q, island, QueryFilter(), rng);
      auto b = testing::RandomOnIsland(q, island, QueryFilter(), rng);
      ASSERT_TRUE(a && b);
      ASSERT_TRUE(q.FindPath(*a, *b, QueryFilter(), {}, &r).ok());
      ASSERT_EQ(r.status, QueryStatus::kComplete) << "island " << island << " pair " << i;
      EXPECT_GE(r.length, Distance(a->pos, b->pos) * (1 - 1e-5));
      EXPECT_EQ(UnityPathProblem(r, oracle), "") << "island " << island << " pair " << i;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20);
}

TEST_P(UnityPathsTest, DifferentIslandGroupsAnswerNoPathWithoutSearch) {
  auto map = testing::CachedMapFromFile(testing::SharedData("unity/" + GetParam()));
  ASSERT_TRUE(map.ok()) << map.status();
  const auto& islands = (*map)->info().islands;
  NavQuery q(*map);
  std::mt19937_64 rng(5);
  PathResult r;
  int pairs = 0;
  for (uint32_t a = 0; a < islands.size(); ++a) {
    for (uint32_t b = a + 1; b < islands.size() && pairs < 50; ++b) {
      if (islands[a].group == islands[b].group) continue;
      auto pa = testing::RandomOnIsland(q, a, QueryFilter(), rng);
      auto pb = testing::RandomOnIsland(q, b, QueryFilter(), rng);
      ASSERT_TRUE(pa && pb);
      ASSERT_TRUE(q.FindPath(*pa, *pb, QueryFilter(), {}, &r).ok());
      EXPECT_EQ(r.status, QueryStatus::kNoPath);
      EXPECT_EQ(r.nodes_expanded, 0u);
      EXPECT_TRUE(r.waypoints.empty());
      ++pairs;
    }
  }
  if (islands.size() > 1) {
    EXPECT_GT(pairs, 0);
  }
}

INSTANTIATE_TEST_SUITE_P(Unity, UnityPathsTest,
                         ::testing::Values("1000.navmesh", "1100.navmesh", "1200.navmesh",
                                           "lear315/LayaNavMesh.obj"),
                         [](const auto& info) {
                           std::string s = info.param;
                           for (char& c : s) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return s;
                         });

}  // namespace
}  // namespace waymesh
