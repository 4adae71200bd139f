// The visibility-graph oracle (visibility_graph_oracle.h) against answers known without it:
// straight lines, detours around a hole worked out by hand, a region that touches itself at a
// point, and the published optimal lengths on Polyanya's arena.

#include "visibility_graph_oracle.h"

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "polyanya_data.h"
#include "support/map_builder.h"
#include "support/test_data.h"

namespace waymesh {
namespace {

using testing::PlanRegionFromRings;
using testing::VisibilityGraphOracle;

// Lengths the oracle computes from ends rounded to its units (1 µm) against exact ones
// (metres): two rounded ends, plus double rounding.
constexpr double kOracleRounding = 2e-6;
// Published Polyanya lengths have 6 significant digits (relative).
constexpr double kPublishedRelative = 1e-5;

std::vector<PlanPoint> SquareRing(double x0, double z0, double x1, double z1) {
  return {{x0, z0}, {x1, z0}, {x1, z1}, {x0, z1}};  // counter-clockwise in (x, z)
}

std::vector<PlanPoint> Reversed(std::vector<PlanPoint> ring) {
  return {ring.rbegin(), ring.rend()};
}

double ExpectPath(const VisibilityGraphOracle& oracle, PlanPoint a, PlanPoint b) {
  const auto length = oracle.ShortestPath(a, b);
  EXPECT_TRUE(length.ok()) << length.status();
  if (!length.ok() || !length->has_value()) {
    ADD_FAILURE() << "no path from (" << a.x << ", " << a.z << ") to (" << b.x << ", " << b.z
                  << ")";
    return -1;
  }
  return **length;
}

TEST(VisibilityGraphOracleTest, EmptySquareGivesTheStraightLine) {
  const VisibilityGraphOracle oracle(PlanRegionFromRings({SquareRing(0, 0, 10, 10)}));
  EXPECT_EQ(oracle.corner_count(), 0u);
  std::mt19937 rng(1);
  std::uniform_real_distribution<double> u(0, 10);
  for (int i = 0; i < 50; ++i) {
    const PlanPoint a{u(rng), u(rng)}, b{u(rng), u(rng)};
    EXPECT_NEAR(ExpectPath(oracle, a, b), std::hypot(b.x - a.x, b.z - a.z), kOracleRounding);
  }
  // Along the boundary and corner to corner.
  EXPECT_NEAR(ExpectPath(oracle, {0, 0}, {10, 0}), 10, kOracleRounding);
  EXPECT_NEAR(ExpectPath(oracle, {0, 0}, {10, 10}), std::sqrt(200.0), kOracleRounding);
}

// A 10 m square with a 2 m square hole in the middle.
VisibilityGraphOracle SquareWithHole() {
  return VisibilityGraphOracle(
      PlanRegionFromRings({SquareRing(0, 0, 10, 10), Reversed(SquareRing(4, 4, 6, 6))}));
}

TEST(VisibilityGraphOracleTest, SquareHoleGivesTheTwoCornerDetour) {
  const VisibilityGraphOracle oracle = SquareWithHole();
  EXPECT_EQ(oracle.corner_count(), 4u);  // the hole's corners; the outer ones are convex
  // (5, 1) -> (4, 4) -> (4, 6) -> (5, 9), or its mirror image.
  const double detour = 2 + 2 * std::sqrt(10.0);
  EXPECT_NEAR(ExpectPath(oracle, {5, 1}, {5, 9}), detour, kOracleRounding);
  EXPECT_NEAR(ExpectPath(oracle, {1, 5}, {9, 5}), detour, kOracleRounding);
  // Diagonally across, around one corner: (4, 6) on one side, (6, 4) on the other.
  EXPECT_NEAR(ExpectPath(oracle, {1, 2}, {9, 8}), 5 + std::sqrt(29.0), kOracleRounding);
  EXPECT_NEAR(ExpectPath(oracle, {1, 3}, {9, 8}), std::hypot(3, 3) + std::hypot(5, 2),
              kOracleRounding);
  // In sight of each other past the hole: the straight line.
  EXPECT_NEAR(ExpectPath(oracle, {1, 1}, {9, 3}), std::hypot(8, 2), kOracleRounding);
  // A point in the hole is refused, naming the end.
  const auto inside = oracle.ShortestPath({5, 5}, {1, 1});
  EXPECT_EQ(inside.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(inside.status().message().find("start (5, 5)"), std::string::npos);
  EXPECT_EQ(oracle.ShortestPath({1, 1}, {NAN, 1}).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(VisibilityGraphOracleTest, SegmentsThroughCornersAndAlongEdges) {
  const VisibilityGraphOracle oracle = SquareWithHole();
  EXPECT_TRUE(oracle.SegmentInside({4, 4}, {4, 6}));    // a hole edge: the boundary counts
  EXPECT_TRUE(oracle.SegmentInside({4, 2}, {4, 8}));    // along it and past both ends
  EXPECT_TRUE(oracle.SegmentInside({0, 0}, {10, 0}));   // the outer boundary
  EXPECT_FALSE(oracle.SegmentInside({4, 4}, {6, 6}));   // corner to corner through the hole
  EXPECT_FALSE(oracle.SegmentInside({3, 3}, {7, 7}));   // through two corners, no edge crossed
  EXPECT_FALSE(oracle.SegmentInside({5, 1}, {5, 9}));   // across the hole
  EXPECT_FALSE(oracle.SegmentInside({-1, 5}, {1, 5}));  // from outside
  EXPECT_TRUE(oracle.SegmentInside({3, 5}, {4, 5}));    // ends on the hole's edge
  EXPECT_TRUE(oracle.SegmentInside({2, 2}, {8, 2}));
}

TEST(VisibilityGraphOracleTest, RegionTouchingItselfAtAPoint) {
  // Two squares meeting at (2, 2) only: paths pass through that point.
  const VisibilityGraphOracle oracle(
      PlanRegionFromRings({SquareRing(0, 0, 2, 2), SquareRing(2, 2, 4, 4)}));
  EXPECT_NEAR(ExpectPath(oracle, {1.5, 0.5}, {2.5, 3.5}), 2 * std::hypot(0.5, 1.5),
              kOracleRounding);
  EXPECT_NEAR(ExpectPath(oracle, {0.5, 1.5}, {3.5, 2.5}), std::hypot(3, 1), kOracleRounding);
  // Apart, no path.
  const VisibilityGraphOracle apart(
      PlanRegionFromRings({SquareRing(0, 0, 2, 2), SquareRing(2.5, 0, 4, 2)}));
  const auto none = apart.ShortestPath({1, 1}, {3, 1});
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_FALSE(none->has_value());
}

// Clipper in oracle units, without the union PlanRegionFromRings does: rings as given.
testing::PlanRegion RawRings(const std::vector<std::vector<PlanPoint>>& rings) {
  testing::PlanRegion region;
  for (const auto& ring : rings) {
    region.emplace_back();
    for (const PlanPoint& q : ring) {
      region.back().push_back(
          {ClipperLib::cInt(std::llround(q.x * testing::kOracleUnitsPerMetre)),
           ClipperLib::cInt(std::llround(q.z * testing::kOracleUnitsPerMetre))});
    }
  }
  return region;
}

// One region cut by Clipper into rings that share an edge (whole, or in part with vertices of
// one lying on the other's edge): the shared edge is no wall.
TEST(VisibilityGraphOracleTest, RingsSharingAnEdgeAreOneRegion) {
  const VisibilityGraphOracle halves(RawRings({SquareRing(0, 0, 2, 2), SquareRing(2, 0, 4, 2)}));
  EXPECT_EQ(halves.corner_count(), 0u);
  EXPECT_TRUE(halves.SegmentInside({1, 1}, {3, 1.5}));
  EXPECT_NEAR(ExpectPath(halves, {0.5, 0.5}, {3.5, 1.5}), std::hypot(3, 1), kOracleRounding);
  // An L: the right ring is taller and its edge at x = 2 runs past both ends of the left one's.
  const VisibilityGraphOracle ell(
      RawRings({SquareRing(0, 0, 2, 2), {{2, 0}, {4, 0}, {4, 6}, {2, 6}, {2, 2}}}));
  EXPECT_EQ(ell.corner_count(), 1u);  // (2, 2)
  EXPECT_TRUE(ell.SegmentInside({1, 1}, {3, 1}));
  EXPECT_FALSE(ell.SegmentInside({1, 1}, {3, 5}));
  EXPECT_NEAR(ExpectPath(ell, {1, 1}, {3, 5}), std::hypot(1, 1) + std::hypot(1, 3),
              kOracleRounding);
  // The same L with the right ring's edge not cut at (2, 2): a T-junction.
  const VisibilityGraphOracle tee(
      RawRings({SquareRing(0, 0, 2, 2), {{2, 0}, {4, 0}, {4, 6}, {2, 6}}}));
  EXPECT_EQ(tee.corner_count(), 1u);
  EXPECT_NEAR(ExpectPath(tee, {1, 1}, {3, 5}), std::hypot(1, 1) + std::hypot(1, 3),
              kOracleRounding);
}

// A U-shaped corridor: the path bends around both inner corners of the U.
TEST(VisibilityGraphOracleTest, CorridorAroundAWall) {
  // 10 x 10 square with a wall from z = 0 up to z = 8 at x in [4, 6].
  const VisibilityGraphOracle oracle(
      PlanRegionFromRings({{{0, 0}, {4, 0}, {4, 8}, {6, 8}, {6, 0}, {10, 0}, {10, 10}, {0, 10}}}));
  EXPECT_EQ(oracle.corner_count(), 2u);
  EXPECT_NEAR(ExpectPath(oracle, {2, 1}, {8, 1}), 2 * std::hypot(2, 7) + 2, kOracleRounding);
}

// Polyanya's published optimal lengths on the arena (no obstacles): the region is the union of
// the compiled map's polygons, so this also checks PlanFreeRegion.
TEST(VisibilityGraphOracleTest, ArenaPublishedOptima) {
  struct Case {
    std::string mesh, expected;
    RepairOptions options;
  };
  RepairOptions tiled;
  tiled.tile_size = 8;
  for (const Case& c :
       {Case{"arena.mesh", "arena_euclid_expected.csv", RepairOptions{.merge = false}},
        Case{"arena-merged.mesh", "arena_merged_euclid_expected.csv", tiled}}) {
    SCOPED_TRACE(c.mesh);
    auto map =
        testing::CachedMapFromFile(testing::SharedData("polyanya/meshes/" + c.mesh), c.options);
    ASSERT_TRUE(map.ok()) << map.status();
    const VisibilityGraphOracle oracle(testing::PlanFreeRegion(**map, {}));
    EXPECT_GT(oracle.corner_count(), 10u);
    const auto queries =
        testing::ReadExpectedFile(testing::SharedData("polyanya/expected/" + c.expected));
    ASSERT_GT(queries.size(), 100u);
    for (size_t i = 0; i < queries.size(); ++i) {
      const testing::ExpectedQuery& e = queries[i];
      const double length = ExpectPath(oracle, {e.start.x, e.start.z}, {e.goal.x, e.goal.z});
      EXPECT_NEAR(length, e.length, kPublishedRelative * e.length) << "query " << i;
    }
  }
}

}  // namespace
}  // namespace waymesh
