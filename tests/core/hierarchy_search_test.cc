// The cluster graph (waymesh/core/hierarchy/cluster_graph.h) and the hierarchical path
// searches over it: its costs are real walking costs between entrances, and a hierarchical
// FindPath answers like the plain search (same outcome, a corridor of touching polygons, paths
// as short on average, never below a published optimum), or falls back to it.

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "polyanya_data.h"
#include "support/demo_town.h"
#include "support/map_builder.h"
#include "support/query_points.h"
#include "support/test_data.h"
#include "waymesh/core/hierarchy/cluster_graph.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/obstacles/carve_map.h"
#include "waymesh/core/obstacles/obstacle.h"
#include "waymesh/core/query_interrupt.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/mesh/repaired_mesh.h"
#include "waymesh/mesh/source_mesh.h"

namespace waymesh {
namespace {

// Mean hierarchical / plain path length may exceed 1 by this much (the route goes through
// entrance anchors; the funnel straightens it within the joined corridor).
constexpr double kMeanLengthTolerance = 0.01;
// Pairs closer than this (plan view) are never searched hierarchically
// (hierarchical_search.h's kHierarchyMinDistance).
constexpr float kGuidedMinDistance = 50;

const ClusterGraph& GraphOf(const NavMap& map) {
  static const ClusterGraph kEmpty;
  return map.search_tables() == nullptr ? kEmpty : map.search_tables()->clusters;
}

// `map` (loaded with its search tables) with a cluster graph of `k` x `k` tiles attached:
// `map` itself when the loader already built that one (a build is seconds under sanitizers).
std::shared_ptr<const NavMap> Guided(const std::shared_ptr<const NavMap>& map, uint32_t k = 1) {
  EXPECT_NE(map->search_tables(), nullptr);
  if (!GraphOf(*map).empty() && GraphOf(*map).tiles_per_side() == k) return map;
  auto tables = std::make_shared<SearchTables>(*map->search_tables());
  tables->clusters = ClusterGraph::Build(*map, k);
  return std::make_shared<const NavMap>(*map, std::move(tables));
}

// Whether polygon `b` is entered from `a` across one of a's edges or by one of a's off-mesh
// links (resident `map`).
bool Touch(const NavMap& map, PolyRef a, PolyRef b) {
  const TileView& t = map.tile(a.tile());
  for (uint32_t i = 0; i < t.corner_count(a.poly()); ++i) {
    if (t.across(t.poly_start[a.poly()] + i) == b.index()) return true;
  }
  for (const OffMeshLink& link : t.off_mesh_links) {
    if (link.start_poly == a.poly() && PolyIndex{link.end_tile, link.end_poly} == b.index()) {
      return true;
    }
  }
  return false;
}

// Whether the corridor runs from the start's polygon to the goal's through polygons that
// touch. (A polygon may come twice: corner refinement, path_refine.h, swaps fans of polygons
// around a vertex, in plain paths too.)
void ExpectValidCorridor(const NavMap& map, const PathResult& r) {
  ASSERT_FALSE(r.corridor.empty());
  EXPECT_EQ(r.corridor.front(), r.start.poly);
  EXPECT_EQ(r.corridor.back(), r.end.poly);
  for (size_t i = 1; i < r.corridor.size(); ++i) {
    EXPECT_TRUE(Touch(map, r.corridor[i - 1], r.corridor[i])) << "step " << i;
  }
}

// What comparing guided and plain searches on one map found.
struct Comparison {
  int pairs = 0, guided = 0, complete = 0;
  double ratio_sum = 0;  // guided / plain length over complete pairs
};

// Random pairs at least kGuidedMinDistance apart on `map` (carrying a cluster graph), each
// searched plainly and guided: same status, and every guided path starts and ends where the
// plain one does.
Comparison Compare(const std::shared_ptr<const NavMap>& map, int pairs, uint64_t seed) {
  NavQuery plain(map, {.hierarchy = false});
  NavQuery guided(map);
  const QueryFilter filter(map->info());
  std::mt19937_64 rng(seed);
  Comparison c;
  PathResult p, g;
  for (int draws = 0; c.pairs < pairs && draws < pairs * 50; ++draws) {
    const auto a = testing::RandomOnMap(plain, filter, rng);
    const auto b = testing::RandomOnMap(plain, filter, rng);
    if (!a || !b || DistanceXZ(a->pos, b->pos) < kGuidedMinDistance) continue;
    ++c.pairs;
    EXPECT_TRUE(plain.FindPath(*a, *b, filter, {}, &p).ok());
    EXPECT_TRUE(guided.FindPath(*a, *b, filter, {}, &g).ok());
    EXPECT_FALSE(p.hierarchical);
    EXPECT_EQ(g.status, p.status) << "pair " << c.pairs;
    c.guided += g.hierarchical ? 1 : 0;
    if (g.status != QueryStatus::kComplete || p.status != QueryStatus::kComplete) continue;
    ++c.complete;
    // On a carved version: a walk over the carved tiles' polygons, not the base map's.
    if (g.hierarchical) ExpectValidCorridor(*map, g);
    EXPECT_EQ(g.waypoints.front().pos, a->pos);
    EXPECT_EQ(g.waypoints.back().pos, b->pos);
    // Both paths cross polygons that touch, so both stay on the surface the same way.
    c.ratio_sum += g.length / p.length;
  }
  return c;
}

TEST(ClusterGraphTest, CostsAreWalksBetweenAnchorsOfOneCluster) {
  const auto& town = testing::Town(400, 7, 64);
  EXPECT_FALSE(GraphOf(*town.map).empty());  // built with the other tables
  const auto map = Guided(town.map);
  const ClusterGraph& graph = GraphOf(*map);
  ASSERT_FALSE(graph.empty());
  EXPECT_EQ(graph.cluster_count(), town.map->tile_count());
  EXPECT_LT(graph.bytes(), town.bytes.size() / 10);
  // The cheapest cost per metre of the town's areas (its roads cost less than walking).
  float scale = INFINITY;
  const QueryFilter filter(town.map->info());
  for (int a = 0; a < kMaxAreas; ++a) {
    if ((town.map->digest().areas_present >> a) & 1) scale = std::min(scale, filter.Cost(a));
  }
  int finite = 0;
  for (uint32_t c = 0; c < graph.cluster_count(); ++c) {
    const auto members = graph.EntrancesOf(c);
    for (uint32_t i = 0; i < members.size(); ++i) {
      const ClusterGraph::Entrance& e = graph.entrance(members[i]);
      EXPECT_TRUE(graph.ClusterOn(e, 0) == c || graph.ClusterOn(e, 1) == c);
      EXPECT_LT(graph.ClusterOn(e, 0), graph.ClusterOn(e, 1));
      EXPECT_EQ(graph.ClusterOn(e, graph.SideIn(e, c)), c);
      EXPECT_EQ(graph.EntrancesOf(c)[e.slot[graph.SideIn(e, c)]], members[i]);
      // The anchor's two polygons touch across the border, one in each cluster.
      EXPECT_TRUE(Touch(*map, map->Ref(e.poly[0]), map->Ref(e.poly[1])));
      EXPECT_EQ(graph.Cost(c, i, i), 0.0f);
      for (uint32_t j = 0; j < members.size(); ++j) {
        const float cost = graph.Cost(c, i, j);
        if (!std::isfinite(cost)) continue;
        ++finite;
        const Vec3 to = graph.entrance(members[j]).anchor;
        // A walk is never shorter than the straight line; both ways keep the cheaper walk.
        EXPECT_GE(cost, Distance(e.anchor, to) * scale * 0.999f - 1e-3f);
        // Nor cheaper per metre than the cluster's cheapest area.
        EXPECT_GE(cost, Distance(e.anchor, to) * graph.CheapestRate(c) * 0.999f - 1e-3f);
        EXPECT_EQ(cost, graph.Cost(c, j, i));
      }
    }
  }
  EXPECT_GT(finite, int(graph.entrance_count()));
}

TEST(ClusterGraphTest, CheapestRateIsTheCheapestAreaOfEachCluster) {
  const auto& town = testing::Town(400, 7, 64);
  const ClusterGraph& graph = GraphOf(*town.map);
  ASSERT_FALSE(graph.empty());
  const QueryFilter filter(town.map->info());
  std::vector<float> cheapest(graph.cluster_count(), INFINITY);
  int links = 0;
  for (uint32_t t = 0; t < town.map->tile_count(); ++t) {
    float& c = cheapest[graph.ClusterOf(t)];
    for (const uint8_t area : town.map->tile(t).poly_area) c = std::min(c, filter.Cost(area));
    // A link's walk costs at least its area's cost times the map's cheapest link rate.
    for (const OffMeshLink& link : town.map->tile(t).off_mesh_links) {
      ++links;
      c = std::min(c, filter.Cost(link.area) * town.map->digest().link_cost_per_metre[link.area]);
    }
  }
  EXPECT_GT(links, 0);
  for (uint32_t c = 0; c < graph.cluster_count(); ++c) {
    EXPECT_EQ(graph.CheapestRate(c), cheapest[c]) << "cluster " << c;
  }
}

TEST(ClusterGraphTest, SquaresOfTilesFormClusters) {
  const auto& town = testing::Town(400, 7, 64);
  const ClusterGraph& one = GraphOf(*town.map);  // 1 x 1, built with the other tables
  ASSERT_EQ(one.tiles_per_side(), 1u);
  const ClusterGraph two = ClusterGraph::Build(*town.map, 2);
  ASSERT_FALSE(two.empty());
  EXPECT_EQ(two.tiles_per_side(), 2u);
  // A 7 x 7 tile grid: 4 x 4 squares of 2 x 2 tiles.
  EXPECT_EQ(two.cluster_count(), (one.cluster_count() == 49 ? 16u : two.cluster_count()));
  EXPECT_LT(two.cluster_count(), one.cluster_count());
  EXPECT_LT(two.entrance_count(), one.entrance_count());
  for (uint32_t t = 0; t < town.map->tile_count(); ++t) {
    for (uint32_t u = 0; u < town.map->tile_count(); ++u) {
      const TileSummary &a = town.map->summary(t), &b = town.map->summary(u);
      const bool same_square = a.grid_x / 2 == b.grid_x / 2 && a.grid_z / 2 == b.grid_z / 2;
      EXPECT_EQ(two.ClusterOf(t) == two.ClusterOf(u), same_square) << t << " " << u;
    }
  }
  EXPECT_TRUE(ClusterGraph::Build(*town.map, 0).empty());
  EXPECT_TRUE(ClusterGraph::Build(*town.map, ClusterGraph::kMaxTilesPerSide + 1).empty());
}

TEST(ClusterGraphTest, SmallMapsHaveNone) {
  const auto& town = testing::Town(200, 7, 200);
  EXPECT_LT(town.map->tile_count(), ClusterGraph::kMinClusters);
  EXPECT_TRUE(ClusterGraph::Build(*town.map).empty());
}

TEST(HierarchySearchTest, DemoTownAnswersLikeThePlainSearch) {
  const auto& town = testing::Town(400, 7, 64);
  // Fewer pairs for the larger clusters (measured in bench/hierarchy_bench, not kept).
  for (const auto& [k, pairs] : {std::pair{1u, 60}, std::pair{2u, 30}}) {
    SCOPED_TRACE(k);
    const Comparison c = Compare(Guided(town.map, k), pairs, 3);
    EXPECT_EQ(c.pairs, pairs);
    EXPECT_GT(c.guided, c.pairs / 3);
    ASSERT_GT(c.complete, 0);
    EXPECT_LE(c.ratio_sum / c.complete, 1.0 + kMeanLengthTolerance);
  }
}

// Area of the road quads of LWalkway, half the walking cost.
constexpr uint8_t kRoadArea = 3;

// An L-shaped walkway, 4 m quads: an arm of 300 x 20 m along x and one along z at its far end,
// so the far end of the second arm is out of sight of the first's start. The first 32 m of the
// first arm are road (kRoadArea), the rest plain walkable ground.
SourceMesh LWalkway() {
  constexpr int kCells = 75, kWidth = 5;  // per arm: length and width in quads
  constexpr float kQuad = 4;
  constexpr int kRoadCells = 8;
  SourceMesh m;
  m.origin = "l-walkway";
  m.areas.resize(kRoadArea + 1);
  m.areas[kWalkableArea] = AreaType{"Walkable", 1.0f, true};
  m.areas[kRoadArea] = AreaType{"Road", 0.5f, true};
  const auto quad = [&](int i, int j) {
    const uint32_t base = uint32_t(m.vertices.size());
    for (const auto [di, dj] : {std::pair{0, 0}, {0, 1}, {1, 1}, {1, 0}}) {
      m.vertices.push_back({float(i + di) * kQuad, 0, float(j + dj) * kQuad});
    }
    m.AddPolygon({base, base + 1, base + 2, base + 3}, i < kRoadCells ? kRoadArea : kWalkableArea);
  };
  for (int i = 0; i < kCells; ++i) {
    for (int j = 0; j < kWidth; ++j) quad(i, j);
  }
  for (int j = kWidth; j < kCells; ++j) {
    for (int i = kCells - kWidth; i < kCells; ++i) quad(i, j);
  }
  return m;
}

TEST(HierarchySearchTest, StraightLegsOfTheCheapestAreaAreNotSearched) {
  RepairOptions options;
  options.tile_size = 32;
  const auto built = testing::BuildMapFromSource(LWalkway(), options);
  ASSERT_TRUE(built.ok()) << built.status();
  const auto map = Guided(*built);
  const ClusterGraph& graph = GraphOf(*map);
  ASSERT_FALSE(graph.empty());
  const QueryFilter filter(map->info());
  ASSERT_EQ(filter.Cost(kRoadArea), 0.5f);
  // Roads only in the first 32 m: every other cluster's cheapest walk is on plain ground, so
  // its legs are provably cheapest as straight lines although the map has cheaper areas.
  int ground = 0;
  for (uint32_t c = 0; c < graph.cluster_count(); ++c) {
    if (graph.CheapestRate(c) == filter.Cost(kWalkableArea)) ++ground;
  }
  EXPECT_GT(ground, int(graph.cluster_count()) * 3 / 4);
  NavQuery plain(map, {.hierarchy = false});
  NavQuery guided(map);
  PathResult p, g;
  const Vec3 start{2, 0, 10}, goal{290, 0, 298};
  ASSERT_TRUE(plain.FindPath(start, goal, filter, {}, &p).ok());
  ASSERT_TRUE(guided.FindPath(start, goal, filter, {}, &g).ok());
  ASSERT_EQ(p.status, QueryStatus::kComplete);
  ASSERT_EQ(g.status, QueryStatus::kComplete);
  EXPECT_TRUE(g.hierarchical);
  EXPECT_FALSE(p.hierarchical);
  ExpectValidCorridor(*map, g);
  EXPECT_LE(g.length, p.length * (1 + kMeanLengthTolerance));
  // Inside each ground tile of an arm the walk between two entrances is a straight line on its
  // cheapest area: only the legs round the corner and on the road are searched.
  EXPECT_LT(g.nodes_expanded, p.nodes_expanded / 4) << p.nodes_expanded;
}

TEST(HierarchySearchTest, UnityExportsAnswerLikeThePlainSearch) {
  for (const char* name : {"1000.navmesh", "1100.navmesh", "1200.navmesh"}) {
    SCOPED_TRACE(name);
    auto map = testing::CachedMapFromFile(testing::SharedData(std::string("unity/") + name));
    ASSERT_TRUE(map.ok()) << map.status();
    const Comparison c = Compare(Guided(*map), 60, 5);
    if (c.complete > 0) {
      EXPECT_LE(c.ratio_sum / c.complete, 1.0 + kMeanLengthTolerance);
    }
  }
}

TEST(HierarchySearchTest, AuroraPathsAreNeverBelowThePublishedOptimum) {
  const testing::Aurora aurora = testing::LoadAurora();
  ASSERT_NE(aurora.map, nullptr);
  const auto map = Guided(aurora.map);
  ASSERT_FALSE(GraphOf(*map).empty());
  NavQuery plain(map, {.hierarchy = false});
  NavQuery guided(map);
  const QueryFilter filter(map->info());
  PathResult p, g;
  double ratio_sum = 0;
  int guided_count = 0, compared = 0;
  for (size_t i = 0; i < aurora.queries.size(); i += 7) {
    const testing::ExpectedQuery& q = aurora.queries[i];
    if (q.length <= 0) continue;
    ASSERT_TRUE(plain.FindPath(q.start, q.goal, filter, {}, &p).ok());
    ASSERT_TRUE(guided.FindPath(q.start, q.goal, filter, {}, &g).ok());
    ASSERT_EQ(g.status, p.status) << "query " << i;
    if (g.status != QueryStatus::kComplete) continue;
    EXPECT_GE(g.length, q.length * (1 - 1e-5)) << "query " << i;
    ratio_sum += g.length / p.length;
    guided_count += g.hierarchical ? 1 : 0;
    ++compared;
  }
  ASSERT_GT(compared, 100);
  EXPECT_GT(guided_count, compared / 4);
  EXPECT_LE(ratio_sum / compared, 1.0 + kMeanLengthTolerance);
}

// The longest pair of a few random ones on the town (guided, more than 300 m apart).
std::pair<SurfacePoint, SurfacePoint> LongPair(NavQuery& q, const QueryFilter& filter) {
  std::mt19937_64 rng(9);
  std::pair<SurfacePoint, SurfacePoint> best;
  float best_d = 0;
  for (int i = 0; i < 40; ++i) {
    const auto a = testing::RandomOnMap(q, filter, rng);
    const auto b = testing::RandomOnMap(q, filter, rng);
    if (a && b && DistanceXZ(a->pos, b->pos) > best_d) {
      best_d = DistanceXZ(a->pos, b->pos);
      best = {*a, *b};
    }
  }
  EXPECT_GT(best_d, 300);
  return best;
}

// Whether a long search with node limit `limit` completes through the hierarchy; the
// result in *r.
bool CompletesWithin(NavQuery& q, const std::pair<SurfacePoint, SurfacePoint>& ends,
                     const QueryFilter& filter, uint32_t limit, PathResult* r) {
  PathOptions options;
  options.max_nodes = limit;
  EXPECT_TRUE(q.FindPath(ends.first, ends.second, filter, options, r).ok());
  EXPECT_LE(r->nodes_expanded, limit);
  return r->status == QueryStatus::kComplete && r->hierarchical;
}

TEST(HierarchySearchTest, NodeLimitHoldsForAllLegsTogether) {
  const auto map = Guided(testing::Town(400, 7, 64).map);
  NavQuery guided(map);
  NavQuery plain(map, {.hierarchy = false});
  const QueryFilter filter(map->info());
  const auto ends = LongPair(guided, filter);
  PathResult r;
  // The smallest limit the hierarchy completes within (lo fails, hi completes).
  uint32_t lo = 40, hi = 1 << 16;
  ASSERT_FALSE(CompletesWithin(guided, ends, filter, lo, &r));
  ASSERT_TRUE(CompletesWithin(guided, ends, filter, hi, &r));
  while (hi - lo > 1) {
    const uint32_t mid = lo + (hi - lo) / 2;
    (CompletesWithin(guided, ends, filter, mid, &r) ? hi : lo) = mid;
  }
  // Each leg needs far fewer nodes than the route: had every leg the whole limit, one just
  // below the route's total would still complete.
  EXPECT_FALSE(CompletesWithin(guided, ends, filter, lo, &r));
  EXPECT_TRUE(r.hierarchical);
  EXPECT_EQ(r.status, QueryStatus::kPartial);
  EXPECT_TRUE(r.node_limit);
  ASSERT_TRUE(CompletesWithin(guided, ends, filter, hi, &r));
  // The plain search needs more than that.
  PathResult p;
  PathOptions options;
  options.max_nodes = hi;
  ASSERT_TRUE(plain.FindPath(ends.first, ends.second, filter, options, &p).ok());
  EXPECT_EQ(p.status, QueryStatus::kPartial);
  // Far below: a partial path along the route, at most the limit expanded in total.
  options.max_nodes = 40;
  ASSERT_TRUE(guided.FindPath(ends.first, ends.second, filter, options, &r).ok());
  EXPECT_EQ(r.status, QueryStatus::kPartial);
  EXPECT_TRUE(r.node_limit);
  EXPECT_LE(r.nodes_expanded, 40u);
  ExpectValidCorridor(*map, r);
  ASSERT_FALSE(r.waypoints.empty());
  EXPECT_EQ(r.waypoints.front().pos, ends.first.pos);
  // The partial path ends nearer the goal than it starts.
  EXPECT_LT(Distance(r.waypoints.back().pos, ends.second.pos),
            Distance(ends.first.pos, ends.second.pos));
}

// Says stop after `allowed` polls; counts every poll.
class LegInterrupt : public QueryInterrupt {
 public:
  explicit LegInterrupt(int allowed) : allowed_(allowed) {}
  absl::Status Check() override {
    return ++polls_ > allowed_ ? absl::CancelledError("test cancel") : absl::OkStatus();
  }
  int polls() const { return polls_; }

 private:
  int allowed_;
  int polls_ = 0;
};

TEST(HierarchySearchTest, InterruptsStopTheLegsWithTheirStatus) {
  const auto map = Guided(testing::Town(400, 7, 64).map);
  NavQuery guided(map);
  const QueryFilter filter(map->info());
  const auto [a, b] = LongPair(guided, filter);
  PathOptions options;
  LegInterrupt never(1 << 30);
  options.interrupt = &never;
  PathResult whole;
  ASSERT_TRUE(guided.FindPath(a, b, filter, options, &whole).ok());
  ASSERT_TRUE(whole.hierarchical);
  EXPECT_GT(never.polls(), 1);  // legs are short: polled once per leg
  LegInterrupt at_second(1);
  options.interrupt = &at_second;
  PathResult cut;
  EXPECT_EQ(guided.FindPath(a, b, filter, options, &cut).code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(at_second.polls(), 2);
  EXPECT_TRUE(cut.waypoints.empty());
}

TEST(HierarchySearchTest, OtherFiltersAndForcedPlainSearchAreNotGuided) {
  const auto& town = testing::Town(400, 7, 64);
  const auto map = Guided(town.map);
  NavQuery guided(map);
  NavQuery forced(map, {.hierarchy = false});
  auto bare = std::make_shared<SearchTables>(*town.map->search_tables());
  bare->clusters = ClusterGraph();
  NavQuery unguided(std::make_shared<const NavMap>(*town.map, std::move(bare)));  // no graph
  const QueryFilter filter(map->info());
  const auto [a, b] = LongPair(guided, filter);
  PathResult r;
  ASSERT_TRUE(guided.FindPath(a, b, filter, {}, &r).ok());
  EXPECT_TRUE(r.hierarchical);
  ASSERT_TRUE(forced.FindPath(a, b, filter, {}, &r).ok());
  EXPECT_FALSE(r.hierarchical);
  ASSERT_TRUE(unguided.FindPath(a, b, filter, {}, &r).ok());
  EXPECT_FALSE(r.hierarchical);
  QueryFilter dearer = filter;
  dearer.SetAreaCost(0, 2.0f);
  ASSERT_TRUE(guided.FindPath(a, b, dearer, {}, &r).ok());
  EXPECT_FALSE(r.hierarchical);
}

TEST(HierarchySearchTest, CarvedVersionsSharingTheGraphAnswerLikeThePlainSearch) {
  const auto map = Guided(testing::Town(400, 7, 64).map);
  NavQuery placer(map, {.hierarchy = false});
  const QueryFilter filter(map->info());
  std::mt19937 rng(17);
  std::vector<Obstacle> blocks;
  for (int i = 0; i < 6; ++i) {
    const auto at = placer.RandomPoint(filter, rng);
    ASSERT_TRUE(at.ok() && *at);
    Obstacle o;
    o.id = "b" + std::to_string(i);
    o.shape = CylinderShape{(*at)->pos, 1.5f, 2};
    blocks.push_back(o);
  }
  ASSERT_TRUE(CanShareSearchTables(*map, blocks));
  auto carved = CarveMap(map, blocks);
  ASSERT_TRUE(carved.ok()) << carved.status();
  // As the server serves a layer version: the carved tiles with the base map's tables, whose
  // graph then routes only through clusters no obstacle carved; the rest search plainly.
  const auto shared = std::make_shared<const NavMap>(**carved, map->shared_search_tables());
  const Comparison c = Compare(shared, 80, 23);
  EXPECT_EQ(c.pairs, 80);
  EXPECT_GT(c.guided, 0);
  EXPECT_LT(c.guided, c.pairs);
  ASSERT_GT(c.complete, 0);
  EXPECT_LE(c.ratio_sum / c.complete, 1.0 + kMeanLengthTolerance);
}

}  // namespace
}  // namespace waymesh
