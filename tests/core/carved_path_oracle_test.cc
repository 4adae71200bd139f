// FindPath on carved maps against an independent oracle (issue 29's correctness target): the
// exact shortest path around the block footprints, from a visibility graph over the plan-view
// free region that Clipper computes from the base map's polygons and ObstacleFootprint's
// outlines (visibility_graph_oracle.h), never from the carving code. On single-floor maps with
// random obstacle sets (overlapping ones, ones on the map border, walls that split the map,
// some with a door gap): a complete path stays in the free region and is never shorter than
// the oracle's, a pair the oracle cannot join is never a complete path, and a pair it joins is
// never NO_PATH. Exact mode (issue 32) on the same pairs is also never longer than the
// oracle's path kept off the outline, nor than the approximate path.

#include <algorithm>
#include <cmath>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "carve_test_support.h"
#include "gtest/gtest.h"
#include "hand_built_map.h"
#include "support/map_builder.h"
#include "support/plan_length.h"
#include "support/sanitizer.h"
#include "support/test_data.h"
#include "visibility_graph_oracle.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/obstacles/carve_map.h"

namespace waymesh {
namespace {

using testing::PlanRegion;
using testing::VisibilityGraphOracle;

// The carved surface matches the free region up to float rounding of the corners carving
// computes (a few µm on maps within ±100 m). The oracle's verdicts allow for that: lengths
// and "unreachable" come from the free region grown by this much (m), "reachable" from the
// map minus the footprints grown by it, so a gap narrower than this is no verdict either way.
constexpr double kRegionSlack = 2e-5;
// A complete path is at least the oracle's length times (1 - relative) minus absolute (m).
constexpr double kLengthRelative = 1e-6;
constexpr double kLengthAbsolute = 1e-4;
// Pairs closer than this (m) along the oracle's path are left out of the mean length ratio.
constexpr double kRatioMinLength = 1.0;
// Half thickness (m) of the walls across the map, before the agent radius is added.
constexpr float kWallHalfThickness = 0.2f;
// Widest door (m) left in a wall between its two halves, before both grow by the agent radius:
// doors from closed to about a metre wide after growth.
constexpr float kMaxDoor = 2.5f;

// Sanitizer builds run the test code (the oracle included) unoptimised: fewer pairs.
constexpr int kSanitizerDivisor = testing::kUnderSanitizer ? 3 : 1;

// What the pairs of one map came to, over all its obstacle sets.
struct OracleTally {
  int pairs = 0;
  int complete = 0;
  int no_path = 0;
  int unreachable = 0;  // no path in the grown region
  int ambiguous = 0;    // joined in the grown region, not in the shrunk one (or an end off it)
  int exact_complete = 0;
  int exact_bounded = 0;  // exact paths held to the length kept off the outline
  double ratio_sum = 0;
  int ratio_count = 0;
  size_t max_corners = 0;
  size_t max_edges = 0;

  void Print(const std::string& name) const {
    std::cout << name << ": " << pairs << " pairs, " << complete << " complete, " << no_path
              << " NO_PATH, " << unreachable << " unreachable by the oracle, " << ambiguous
              << " ambiguous; mean FindPath / oracle length "
              << (ratio_count > 0 ? ratio_sum / ratio_count : 0) << " over " << ratio_count
              << " pairs; largest graph " << max_corners << " corners, " << max_edges
              << " outline edges; exact mode " << exact_complete << " complete, " << exact_bounded
              << " of them bounded from above\n";
  }
};

// Random points on the outline of `region` (metres), uniform by length.
std::vector<PlanPoint> RandomOutlinePoints(const PlanRegion& region, int count, std::mt19937& rng) {
  std::vector<std::pair<ClipperLib::IntPoint, ClipperLib::IntPoint>> edges;
  std::vector<double> lengths;
  for (const ClipperLib::Path& ring : region) {
    for (size_t i = 0; i < ring.size(); ++i) {
      const auto& a = ring[i];
      const auto& b = ring[(i + 1) % ring.size()];
      edges.push_back({a, b});
      lengths.push_back(std::hypot(double(b.X - a.X), double(b.Y - a.Y)));
    }
  }
  std::vector<PlanPoint> out;
  if (edges.empty()) return out;
  std::discrete_distribution<size_t> pick(lengths.begin(), lengths.end());
  std::uniform_real_distribution<double> u(0, 1);
  for (int i = 0; i < count; ++i) {
    const auto& [a, b] = edges[pick(rng)];
    const double t = u(rng);
    out.push_back({(a.X + t * (b.X - a.X)) / testing::kOracleUnitsPerMetre,
                   (a.Y + t * (b.Y - a.Y)) / testing::kOracleUnitsPerMetre});
  }
  return out;
}

// A wall through `at` across the whole map at a random angle, in two halves leaving a door of
// random width (often closed once the halves grow by the agent radius) at a random place.
std::vector<Obstacle> RandomWall(const std::string& id, Vec3 at, const Aabb& bounds,
                                 std::mt19937& rng) {
  std::uniform_real_distribution<float> u(0, 1);
  const float reach = std::hypot(bounds.max.x - bounds.min.x, bounds.max.z - bounds.min.z);
  const float yaw_deg = 180 * u(rng);
  const float yaw = yaw_deg * float(M_PI) / 180;
  // A box's local +X turns towards -Z by the yaw (footprint.h).
  const float dx = std::cos(yaw), dz = -std::sin(yaw);
  const float door = kMaxDoor * u(rng), offset = reach * (u(rng) - 0.5f);
  std::vector<Obstacle> halves;
  for (const float side : {-1.0f, 1.0f}) {
    const float from = offset + side * 0.5f * door, to = side * reach;
    const float mid = 0.5f * (from + to), half = 0.5f * std::fabs(to - from);
    halves.push_back(
        {id + (side < 0 ? "-a" : "-b"),
         BoxShape{{at.x + mid * dx, at.y, at.z + mid * dz}, {half, 1, kWallHalfThickness}, yaw_deg},
         ObstacleEffect::kBlock, 0});
  }
  return halves;
}

// `scattered` random obstacles over the surface (some area ones), `on_border` ones centred on
// the map's outline, and `walls` walls across the map; every height range covers the map.
std::vector<Obstacle> OracleObstacles(const std::shared_ptr<const NavMap>& base,
                                      const PlanRegion& outline, int scattered, int on_border,
                                      int walls, std::mt19937& rng) {
  NavQuery q(base);
  std::vector<Obstacle> obstacles = testing::RandomObstacles(q, scattered, rng, true);
  std::uniform_real_distribution<float> u(0, 1);
  int n = 0;
  for (const PlanPoint& p : RandomOutlinePoints(outline, on_border, rng)) {
    const Vec3 c{float(p.x), 0, float(p.z)};
    const std::string id = "border-" + std::to_string(n++);
    if (u(rng) < 0.5f) {
      obstacles.push_back(
          {id, CylinderShape{c, 0.3f + 1.5f * u(rng), 1}, ObstacleEffect::kBlock, 0});
    } else {
      obstacles.push_back({id, BoxShape{c, {0.3f + 2 * u(rng), 1, 0.3f + u(rng)}, 360 * u(rng)},
                           ObstacleEffect::kBlock, 0});
    }
  }
  QueryFilter all;
  for (int w = 0; w < walls; ++w) {
    const auto at = q.RandomPoint(all, rng);
    if (!at.ok() || !*at) continue;
    for (Obstacle& half :
         RandomWall("wall-" + std::to_string(w), (*at)->pos, base->info().bounds, rng)) {
      obstacles.push_back(std::move(half));
    }
  }
  testing::SpanHeights(base->info().bounds, 5, &obstacles);
  return obstacles;
}

// Exact mode on the same pair: complete whenever the free region kept off its outline
// (`inner`, nullopt when it does not join the ends or holds neither) joins the ends, never when
// the grown one (`outer`) does not; its length between the two regions' shortest paths and
// never above the approximate path's; every segment in the free region.
void CheckExactPath(NavQuery& q, const SurfacePoint& a, const SurfacePoint& b,
                    const PathResult& approximate, const VisibilityGraphOracle& grown,
                    std::optional<double> outer, std::optional<double> inner,
                    const std::string& where, OracleTally* tally) {
  PathOptions options;
  options.mode = PathMode::kExact;
  PathResult exact;
  ASSERT_TRUE(q.FindPath(a, b, QueryFilter(), options, &exact).ok()) << where;
  if (!outer.has_value()) {
    EXPECT_NE(exact.status, QueryStatus::kComplete)
        << where << ": an exact path where the free region joins no path";
    return;
  }
  if (inner.has_value()) {
    EXPECT_EQ(exact.status, QueryStatus::kComplete)
        << where << ": exact mode did not join ends the free region kept off its outline joins, "
        << *inner << " m";
  }
  if (exact.status != QueryStatus::kComplete) return;
  ++tally->exact_complete;
  tally->exact_bounded += inner.has_value();
  const double plan = testing::PlanLength(exact);
  EXPECT_GE(plan, *outer * (1 - kLengthRelative) - kLengthAbsolute)
      << where << ": exact path shorter than the shortest path around the footprints";
  if (inner.has_value()) {
    EXPECT_LE(plan, *inner * (1 + kLengthRelative) + kLengthAbsolute)
        << where << ": exact path longer than the shortest path kept off the outline";
  }
  if (approximate.status == QueryStatus::kComplete) {
    EXPECT_LE(plan, testing::PlanLength(approximate) * (1 + kLengthRelative) + kLengthAbsolute)
        << where << ": exact path longer than the approximate one";
  }
  for (size_t k = 0; k + 1 < exact.waypoints.size(); ++k) {
    const Vec3 s = exact.waypoints[k].pos, e = exact.waypoints[k + 1].pos;
    EXPECT_TRUE(grown.SegmentInside({s.x, s.z}, {e.x, e.z}))
        << where << ": exact segment " << k << " leaves the free region";
  }
}

// Carves `obstacles` into `base` and checks `pairs` random pairs of carved surface points
// against the oracle; adds to `tally`.
void CheckPathsAgainstOracle(const std::shared_ptr<const NavMap>& base,
                             const std::vector<Obstacle>& obstacles, int pairs, std::mt19937& rng,
                             OracleTally* tally) {
  auto carved = CarveMap(base, obstacles);
  ASSERT_TRUE(carved.ok()) << carved.status();
  const std::vector<Footprint> footprints = testing::Footprints(*base, obstacles);
  const VisibilityGraphOracle grown(testing::PlanFreeRegion(*base, footprints, kRegionSlack));
  const VisibilityGraphOracle shrunk(testing::PlanFreeRegion(*base, footprints, -kRegionSlack));
  // Exact mode is bounded from above by paths that keep off the outline, which cannot slip
  // through a point where two polygons of the map meet only at a corner.
  const VisibilityGraphOracle strict(
      testing::PlanFreeRegionKeptOff(*base, footprints, kRegionSlack));
  tally->max_corners = std::max(tally->max_corners, grown.corner_count());
  tally->max_edges = std::max(tally->max_edges, grown.edge_count());
  NavQuery q(*carved);
  QueryFilter all;
  PathResult path;
  for (int i = 0; i < pairs; ++i) {
    const auto a = q.RandomPoint(all, rng), b = q.RandomPoint(all, rng);
    ASSERT_TRUE(a.ok() && b.ok() && *a && *b) << "no random point, pair " << i;
    const PlanPoint pa{(*a)->pos.x, (*a)->pos.z}, pb{(*b)->pos.x, (*b)->pos.z};
    const std::string where = "pair " + std::to_string(i) + " (" + std::to_string(pa.x) + ", " +
                              std::to_string(pa.z) + ") -> (" + std::to_string(pb.x) + ", " +
                              std::to_string(pb.z) + ")";
    // Random points lie on the carved surface, so inside the grown region.
    const auto outer = grown.ShortestPath(pa, pb);
    ASSERT_TRUE(outer.ok()) << where << ": " << outer.status();
    const auto inner = shrunk.ShortestPath(pa, pb);
    ASSERT_TRUE(q.FindPath(**a, **b, all, {}, &path).ok()) << where;
    const auto kept_off = strict.ShortestPath(pa, pb);
    CheckExactPath(q, **a, **b, path, grown, *outer, kept_off.ok() ? *kept_off : std::nullopt,
                   where, tally);
    ++tally->pairs;
    tally->no_path += path.status == QueryStatus::kNoPath;
    if (!outer->has_value()) {
      ++tally->unreachable;
      EXPECT_NE(path.status, QueryStatus::kComplete)
          << where << ": a complete path where the free region joins no path, length "
          << path.length;
      continue;
    }
    const bool joined_inside = inner.ok() && inner->has_value();
    tally->ambiguous += !joined_inside;
    if (joined_inside) {
      EXPECT_NE(path.status, QueryStatus::kNoPath)
          << where << ": NO_PATH where the free region joins them, " << **inner << " m";
    }
    if (path.status != QueryStatus::kComplete) continue;
    ++tally->complete;
    const double optimum = **outer;
    EXPECT_GE(path.length, optimum * (1 - kLengthRelative) - kLengthAbsolute)
        << where << ": shorter than the shortest path around the footprints";
    for (size_t k = 0; k + 1 < path.waypoints.size(); ++k) {
      const Vec3 s = path.waypoints[k].pos, e = path.waypoints[k + 1].pos;
      EXPECT_TRUE(grown.SegmentInside({s.x, s.z}, {e.x, e.z}))
          << where << ": segment " << k << " leaves the free region";
    }
    if (optimum >= kRatioMinLength) {
      tally->ratio_sum += path.length / optimum;
      ++tally->ratio_count;
    }
  }
}

struct OracleCase {
  std::string name;
  std::function<std::shared_ptr<const NavMap>()> map;
  int seeds;
  int scattered, on_border, walls;  // obstacles per set (a wall is two boxes)
  int pairs;                        // per obstacle set
};

// A 30 m square of 3 m cells with some cells left out (pillars and a notch in the border),
// built by hand in one tile.
std::shared_ptr<const NavMap> HandBuiltCourtyard() {
  const auto [verts, polys] = testing::GridPolygons(10, 10, 3.0f, 0, {22, 23, 45, 56, 57, 90, 77});
  return testing::BuildHandMap(verts, polys);
}

// A real Unity export (sloped, one floor in plan view) in 8 m tiles, so that many footprints
// cross tile seams.
std::shared_ptr<const NavMap> UnityExport(const std::string& file) {
  RepairOptions options;
  options.tile_size = 8;
  auto map = testing::CachedMapFromFile(testing::SharedData(file), options);
  EXPECT_TRUE(map.ok()) << map.status();
  return map.ok() ? *map : nullptr;
}

void PrintTo(const OracleCase& c, std::ostream* os) { *os << c.name; }

class CarvedPathOracleTest : public ::testing::TestWithParam<OracleCase> {};

TEST_P(CarvedPathOracleTest, PathsAgreeWithVisibilityGraph) {
  const OracleCase& c = GetParam();
  const std::shared_ptr<const NavMap> base = c.map();
  ASSERT_NE(base, nullptr);
  const PlanRegion outline = testing::PlanFreeRegion(*base, {});
  OracleTally tally;
  for (int seed = 1; seed <= c.seeds; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 rng(seed);
    const std::vector<Obstacle> obstacles =
        OracleObstacles(base, outline, c.scattered, c.on_border, c.walls, rng);
    CheckPathsAgainstOracle(base, obstacles, c.pairs / kSanitizerDivisor, rng, &tally);
    if (HasFatalFailure()) return;
  }
  tally.Print(c.name);
  // The sets must exercise every verdict: complete paths, pairs walled apart.
  EXPECT_GT(tally.complete, tally.pairs / 5);
  EXPECT_GT(tally.unreachable, 0);
  EXPECT_LE(tally.ambiguous, tally.pairs / 20);
  EXPECT_GT(tally.exact_bounded, tally.pairs / 5);
}

// Carves the arena in `tile_size` m tiles with the obstacle set of `seed` (as the oracle cases
// draw it) and expects exact mode from `from` to `to` complete and no longer than the
// approximate path.
void ExpectExactNoLongerThanApproximate(float tile_size, int seed, int scattered, int on_border,
                                        int walls, Vec3 from, Vec3 to) {
  const std::shared_ptr<const NavMap> base = testing::CarveArena(tile_size);
  ASSERT_NE(base, nullptr);
  std::mt19937 rng(seed);
  const std::vector<Obstacle> obstacles =
      OracleObstacles(base, testing::PlanFreeRegion(*base, {}), scattered, on_border, walls, rng);
  auto carved = CarveMap(base, obstacles);
  ASSERT_TRUE(carved.ok()) << carved.status();
  NavQuery q(*carved);
  PathResult approximate, exact;
  ASSERT_TRUE(q.FindPath(from, to, QueryFilter(), {}, &approximate).ok());
  PathOptions options;
  options.mode = PathMode::kExact;
  ASSERT_TRUE(q.FindPath(from, to, QueryFilter(), options, &exact).ok());
  ASSERT_EQ(approximate.status, QueryStatus::kComplete);
  ASSERT_EQ(exact.status, QueryStatus::kComplete);
  EXPECT_LE(testing::PlanLength(exact), testing::PlanLength(approximate) + kLengthAbsolute);
}

// Seed 16 of the arena case puts a footprint corner on a tile seam: carving rounds it to two
// corners 2 µm apart, one on each side of the seam, so one piece folds back on itself. Exact
// mode must still turn at that corner (it took a 0.2 % longer way round before).
TEST(CarvedExactPathTest, TurnsAtAFootprintCornerFoldedAtATileSeam) {
  ExpectExactNoLongerThanApproximate(8, 16, 100, 16, 2, {35.307514f, 0, 7.028093f},
                                     {36.833576f, 0, 28.710745f});
}

// The dense arena in 5 m tiles, seed 9: carving leaves a footprint corner doubled (a
// zero-length wall between two copies) where the path turns. Exact mode took the first copy
// for the corner its interval entered by, and swept back and forth over the edge it came in
// by instead of turning there (1.6 % longer than the approximate path).
TEST(CarvedExactPathTest, TurnsAtADoubledFootprintCorner) {
  ExpectExactNoLongerThanApproximate(5, 9, 200, 30, 0, {16.377815f, 0, 12.227733f},
                                     {46.049904f, 0, 46.626068f});
}

INSTANTIATE_TEST_SUITE_P(
    Maps, CarvedPathOracleTest,
    ::testing::Values(
        OracleCase{"arena", [] { return testing::CarveArena(8); }, 6, 100, 16, 2, 100},
        OracleCase{"arena_dense", [] { return testing::CarveArena(8); }, 2, 200, 30, 0, 100},
        OracleCase{"courtyard", HandBuiltCourtyard, 4, 30, 8, 1, 60},
        OracleCase{"unity_1000", [] { return UnityExport("unity/1000.navmesh"); }, 3, 30, 8, 1, 60},
        OracleCase{"unity_1100", [] { return UnityExport("unity/1100.navmesh"); }, 3, 40, 8, 1, 60},
        OracleCase{"unity_1200", [] { return UnityExport("unity/1200.navmesh"); }, 3, 30, 8, 1, 60},
        OracleCase{"laya", [] { return UnityExport("unity/lear315/LayaNavMesh.obj"); }, 3, 60, 8, 0,
                   60}),
    [](const auto& info) { return info.param.name; });

}  // namespace
}  // namespace waymesh
