// FindPolygonsInCircle against brute force: exactly the polygons reachable from the centre
// without leaving the circle (disc_oracle.h), each entered from an earlier one through a portal
// inside the circle, in cost order, on real maps and with filters.

#include <cmath>
#include <map>
#include <random>
#include <set>

#include "disc_oracle.h"
#include "gtest/gtest.h"
#include "hand_built_map.h"
#include "support/demo_town.h"
#include "support/map_builder.h"
#include "support/query_points.h"
#include "support/test_data.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/demo_world/demo_world.h"

namespace waymesh {
namespace {

using testing::DiscOracle;

// Relative tolerance of recomputed costs.
constexpr double kCostEps = 1e-4;
constexpr uint32_t kNoLimit = 1u << 20;

DiscOracle::Key PolyKey(PolyRef r) { return {r.tile(), r.poly()}; }

// The walks from `from` into `to` through an edge within the circle: from each point where
// the search may have entered `from` (several when costs tied) to the edge's midpoint.
struct Step {
  Vec3 mid;
  double cost;   // from.cost + walk length * area cost
  size_t entry;  // index into the entries of `from`
};
std::vector<Step> StepsInto(const NavMap& map, const PolygonInCircle& from, PolyRef to,
                            const std::vector<Vec3>& entries, float area_cost, Vec3 center,
                            float radius) {
  const TileView& t = map.tile(from.poly.tile());
  const uint32_t n = t.corner_count(from.poly.poly());
  std::vector<Step> steps;
  for (uint32_t i = 0; i < n; ++i) {
    const auto nb = t.across(t.poly_start[from.poly.poly()] + i);
    if (!nb || nb->tile != to.tile() || nb->poly != to.poly()) continue;
    const Vec3 a = t.corner(from.poly.poly(), i), b = t.corner(from.poly.poly(), (i + 1) % n);
    if (testing::SegmentDistanceXZ(a, b, center) > radius + DiscOracle::kEdgeTie) continue;
    for (size_t k = 0; k < entries.size(); ++k) {
      const Vec3 mid = Lerp(a, b, 0.5f);
      steps.push_back({mid, from.cost + Distance(entries[k], mid) * area_cost, k});
    }
  }
  return steps;
}

// Checks one answer polygon by polygon and collects the polygons it names in `got`.
void ExpectWellFormed(NavQuery& q, const QueryFilter& filter, const SurfacePoint& c, float radius,
                      const PolygonsInCircle& out, int i, std::set<DiscOracle::Key>* got) {
  std::map<uint64_t, size_t> index;  // PolyRef bits -> position
  // Where the search may have entered each polygon: the portal midpoints of its cheapest
  // entries (equal costs may tie either way in float).
  std::map<uint64_t, std::vector<Vec3>> entries;
  EXPECT_EQ(out.status, QueryStatus::kComplete) << i;
  if (out.polygons.empty()) {
    ADD_FAILURE() << i << ": not even the centre's polygon";
    return;
  }
  EXPECT_EQ(out.polygons[0].poly, c.poly) << i;
  EXPECT_FALSE(out.polygons[0].parent.valid()) << i;
  EXPECT_EQ(out.polygons[0].cost, 0.0f) << i;
  entries[c.poly.bits()] = {c.pos};
  for (size_t k = 0; k < out.polygons.size(); ++k) {
    const PolygonInCircle& p = out.polygons[k];
    EXPECT_TRUE(got->insert(PolyKey(p.poly)).second) << i << ": polygon listed twice";
    index[p.poly.bits()] = k;
    const TileView& t = q.map().tile(p.poly.tile());
    EXPECT_EQ(p.area, t.poly_area[p.poly.poly()]) << i;
    EXPECT_TRUE(filter.Passes(p.area, t.poly_flags[p.poly.poly()])) << i;
    // The centroid is on the polygon's surface.
    auto on = q.ClosestPointOnPoly(p.poly, p.centroid);
    ASSERT_TRUE(on.ok()) << on.status();
    EXPECT_LT(Distance(*on, p.centroid), 1e-3) << i << ": centroid off its polygon";
    if (k == 0) continue;
    EXPECT_GE(p.cost, out.polygons[k - 1].cost) << i << ": not in cost order";
    // Entered from an earlier polygon through a portal inside the circle, at the cost of the
    // walk from the parent's entry point to that portal's midpoint.
    const auto parent = index.find(p.parent.bits());
    ASSERT_NE(parent, index.end()) << i << ": parent not listed before " << k;
    const PolygonInCircle& from = out.polygons[parent->second];
    const uint8_t from_area = q.map().tile(from.poly.tile()).poly_area[from.poly.poly()];
    const std::vector<Step> steps = StepsInto(q.map(), from, p.poly, entries[from.poly.bits()],
                                              filter.Cost(from_area), c.pos, radius);
    ASSERT_FALSE(steps.empty()) << i << ": parent is no neighbour within the circle";
    // From its entry point the search takes the cheapest step: some entry's cheapest matches.
    std::vector<double> cheapest(entries[from.poly.bits()].size(), INFINITY);
    for (const Step& s : steps) cheapest[s.entry] = std::min(cheapest[s.entry], s.cost);
    const double tie = kCostEps * (1 + p.cost);
    for (const Step& s : steps) {
      if (std::fabs(s.cost - p.cost) <= tie && std::fabs(cheapest[s.entry] - p.cost) <= tie) {
        entries[p.poly.bits()].push_back(s.mid);
      }
    }
    EXPECT_FALSE(entries[p.poly.bits()].empty())
        << i << ": cost " << p.cost << " is not the cheapest step from the parent";
    if (entries[p.poly.bits()].empty()) return;
  }
}

int ComparePolygonsWithBruteForce(const std::shared_ptr<const NavMap>& map,
                                  const QueryFilter& filter, float max_radius, int draws,
                                  uint64_t seed) {
  NavQuery q(map);
  const DiscOracle oracle(*map, filter);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> radius_of(0.2f, max_radius);
  PolygonsInCircle out;
  int compared = 0;
  for (int i = 0; i < draws; ++i) {
    const auto c = testing::RandomOnMap(q, filter, rng);
    EXPECT_TRUE(c);
    if (!c) return compared;
    const float r = radius_of(rng);
    EXPECT_TRUE(q.FindPolygonsInCircle(*c, r, filter, kNoLimit, &out).ok());
    EXPECT_FALSE(out.truncated) << i;
    std::set<DiscOracle::Key> got;
    ExpectWellFormed(q, filter, *c, r, out, i, &got);
    bool ambiguous;
    const auto brute = oracle.Reachable(PolyKey(c->poly), c->pos, r, &ambiguous);
    if (ambiguous) continue;
    ++compared;
    EXPECT_EQ(got, brute) << i << ": " << got.size() << " polygons, brute force " << brute.size();
  }
  return compared;
}

TEST(PolygonsInCircleTest, ExactlyTheReachablePolygonsOnRealMaps) {
  auto aurora = testing::CachedMapFromFile(
      testing::SharedData("polyanya/meshes/aurora-merged.mesh"), RepairOptions{.merge = false});
  ASSERT_TRUE(aurora.ok()) << aurora.status();
  auto unity = testing::CachedMapFromFile(testing::SharedData("unity/1100.navmesh"));
  ASSERT_TRUE(unity.ok()) << unity.status();
  EXPECT_GT(ComparePolygonsWithBruteForce(*aurora, QueryFilter(), 25, 600, 51), 550);
  EXPECT_GT(ComparePolygonsWithBruteForce(*unity, QueryFilter(), 25, 600, 52), 550);
}

TEST(PolygonsInCircleTest, MultiFloorTownWithAreaCostsAndFilters) {
  const testing::DemoTown& town = testing::Town();
  QueryFilter costs(town.map->info());
  costs.SetAreaCost(kDemoAreaRoad, 0.25f);
  QueryFilter dry(town.map->info());
  dry.SetAreaEnabled(kDemoAreaWater, false);
  QueryFilter none_flagged;
  none_flagged.set_exclude_flags(QueryFilter::kAllFlags);
  EXPECT_GT(ComparePolygonsWithBruteForce(town.map, costs, 30, 400, 53), 350);
  EXPECT_GT(ComparePolygonsWithBruteForce(town.map, dry, 30, 400, 54), 350);
  // Under the bridge: the deck above is not reachable within a small circle.
  NavQuery q(town.map);
  const auto under =
      testing::Nearest(q, testing::ProbeAt(town, kProbeWalkwayUnderBridge), {0.5f, 1, 0.5f}, costs);
  ASSERT_TRUE(under);
  PolygonsInCircle out;
  ASSERT_TRUE(q.FindPolygonsInCircle(*under, 3, costs, kNoLimit, &out).ok());
  for (const PolygonInCircle& p : out.polygons) {
    EXPECT_LT(std::fabs(p.centroid.y - under->pos.y), 2.0f) << "a polygon of another floor";
  }
}

TEST(PolygonsInCircleTest, TheLimitKeepsTheCheapestAndSaysSo) {
  auto map = testing::CachedMapFromFile(testing::SharedData("polyanya/meshes/aurora-merged.mesh"),
                                        RepairOptions{.merge = false});
  ASSERT_TRUE(map.ok()) << map.status();
  NavQuery q(*map);
  std::mt19937_64 rng(55);
  PolygonsInCircle all, some;
  int limited = 0;
  for (int i = 0; i < 200; ++i) {
    const auto c = testing::RandomOnMap(q, QueryFilter(), rng);
    ASSERT_TRUE(c);
    ASSERT_TRUE(q.FindPolygonsInCircle(*c, 20, QueryFilter(), kNoLimit, &all).ok());
    const uint32_t n = uint32_t(all.polygons.size());
    ASSERT_TRUE(q.FindPolygonsInCircle(*c, 20, QueryFilter(), n, &some).ok());
    EXPECT_FALSE(some.truncated) << i;
    EXPECT_EQ(some.polygons.size(), n) << i;
    if (n < 2) continue;
    ++limited;
    ASSERT_TRUE(q.FindPolygonsInCircle(*c, 20, QueryFilter(), n / 2, &some).ok());
    EXPECT_TRUE(some.truncated) << i;
    ASSERT_EQ(some.polygons.size(), n / 2) << i;
    for (uint32_t k = 0; k < n / 2; ++k) {
      EXPECT_EQ(some.polygons[k].poly, all.polygons[k].poly) << i;
      EXPECT_EQ(some.polygons[k].cost, all.polygons[k].cost) << i;
    }
  }
  EXPECT_GT(limited, 150);
}

TEST(PolygonsInCircleTest, ACentreOnARejectedPolygonIsOffMesh) {
  const testing::DemoTown& town = testing::Town();
  NavQuery q(town.map);
  QueryFilter water_only;
  water_only.set_area_mask(uint64_t{1} << kDemoAreaWater);
  std::mt19937_64 rng(56);
  const auto c = testing::RandomOnMap(q, water_only, rng);
  ASSERT_TRUE(c);
  QueryFilter dry(town.map->info());
  dry.SetAreaEnabled(kDemoAreaWater, false);
  PolygonsInCircle out;
  ASSERT_TRUE(q.FindPolygonsInCircle(*c, 5, dry, 100, &out).ok());
  EXPECT_EQ(out.status, QueryStatus::kStartOffMesh);
  EXPECT_TRUE(out.polygons.empty());
  WallDistance w;
  ASSERT_TRUE(q.FindDistanceToWall(*c, 5, dry, &w).ok());
  EXPECT_EQ(w.status, QueryStatus::kStartOffMesh);
  // Snapping with that filter finds dry land or nothing, never the water polygon.
  ASSERT_TRUE(q.FindPolygonsInCircle(c->pos, 5, dry, 100, {0.1f, 0.1f, 0.1f}, &out).ok());
  if (out.status == QueryStatus::kComplete) {
    EXPECT_NE(out.polygons[0].poly, c->poly);
  }
}

// Bad arguments and references are errors (nav_query.h's convention), for both queries.
TEST(CircleQueriesTest, BadArgumentsAndStaleReferencesAreErrors) {
  auto [v, p] = testing::GridPolygons(4, 4, 1.0f);
  const auto before = testing::BuildHandMap(v, p);
  NavQuery old_query(before);
  const auto c = testing::Nearest(old_query, {1.5f, 0, 1.5f}, {1, 1, 1}, QueryFilter());
  ASSERT_TRUE(c);
  PolygonsInCircle out;
  WallDistance w;
  const QueryFilter f;
  const Vec3 ext{1, 1, 1};
  auto code = [](const absl::Status& s) { return s.code(); };
  constexpr auto kBad = absl::StatusCode::kInvalidArgument;
  for (const float r : {0.0f, -1.0f, INFINITY, NAN}) {
    EXPECT_EQ(code(old_query.FindPolygonsInCircle(*c, r, f, 10, &out)), kBad) << r;
    EXPECT_EQ(code(old_query.FindPolygonsInCircle(c->pos, r, f, 10, ext, &out)), kBad) << r;
    EXPECT_EQ(code(old_query.FindDistanceToWall(*c, r, f, &w)), kBad) << r;
    EXPECT_EQ(code(old_query.FindDistanceToWall(c->pos, r, f, ext, &w)), kBad) << r;
  }
  EXPECT_EQ(code(old_query.FindPolygonsInCircle(*c, 1, f, 0, &out)), kBad);
  EXPECT_EQ(code(old_query.FindPolygonsInCircle(c->pos, 1, f, 0, ext, &out)), kBad);
  const Vec3 nan_pos{NAN, 0, 1};
  EXPECT_EQ(code(old_query.FindPolygonsInCircle(nan_pos, 1, f, 10, ext, &out)), kBad);
  EXPECT_EQ(code(old_query.FindDistanceToWall(nan_pos, 1, f, ext, &w)), kBad);
  EXPECT_EQ(code(old_query.FindDistanceToWall(SurfacePoint{c->poly, nan_pos}, 1, f, &w)), kBad);
  EXPECT_EQ(code(old_query.FindPolygonsInCircle(c->pos, 1, f, 10, {-1, 1, 1}, &out)), kBad);
  EXPECT_EQ(code(old_query.FindDistanceToWall(c->pos, 1, f, {1, -1, 1}, &w)), kBad);
  const SurfacePoint outside{PolyRef(0, 999, kFirstGeneration), c->pos};
  EXPECT_EQ(code(old_query.FindPolygonsInCircle(outside, 1, f, 10, &out)), kBad);
  EXPECT_EQ(code(old_query.FindDistanceToWall(outside, 1, f, &w)), kBad);
  // A reference from before a reload.
  const std::vector<TileView> tiles(before->tiles().begin(), before->tiles().end());
  const auto after = std::make_shared<const NavMap>(before->info(), tiles, before,
                                                    NextGeneration(kFirstGeneration));
  NavQuery q(after);
  constexpr auto kStale = absl::StatusCode::kFailedPrecondition;
  EXPECT_EQ(code(q.FindPolygonsInCircle(*c, 1, f, 10, &out)), kStale);
  EXPECT_EQ(code(q.FindDistanceToWall(*c, 1, f, &w)), kStale);
}

}  // namespace
}  // namespace waymesh
