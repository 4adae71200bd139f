// The corner graph (core/src/exact/corner_graph.h) with the corners points see
// (VisibleCorners) gives exact distances: on the pillar by hand, and on aurora-merged against
// the exact search for hundreds of random pairs, through a plain Dijkstra over the graph
// (the hub labels built over it must give the same numbers).

#include "exact/corner_graph.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "corner_test_support.h"
#include "exact/sight_flood.h"
#include "exact/turn_corner_index.h"
#include "gtest/gtest.h"
#include "polyanya_data.h"
#include "support/dijkstra.h"
#include "support/plan_length.h"
#include "support/query_points.h"
#include "support/sanitizer.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"

namespace waymesh {
namespace {

using internal::QueryContext;
using internal::exact::CornerEdge;
using internal::exact::CornerEdgeRule;
using internal::exact::CornerGraph;
using internal::exact::CornerNeighbour;
using internal::exact::SeenCorner;
using internal::exact::TurnCornerIndex;
using internal::exact::VisibleCorners;

// Relative agreement with the exact search the design promises.
constexpr double kRelativeTolerance = 1e-6;

TEST(CornerGraphTest, PillarIsASquareOfWalls) {
  const auto map = testing::PillarMap();
  auto ctx = testing::ContextFor(map);
  const QueryFilter filter = ExactReadyFilter(*map);
  const TurnCornerIndex index = TurnCornerIndex::Build(*ctx, filter);
  for (const CornerEdgeRule rule :
       {CornerEdgeRule::kTautBothEnds, CornerEdgeRule::kSeenFromEither}) {
    const CornerGraph graph = CornerGraph::Build(*ctx, filter, index, rule);
    ASSERT_EQ(graph.corner_count(), 4u);
    // The four sides, one metre each; the diagonals cross the pillar.
    ASSERT_EQ(graph.edges().size(), 4u);
    for (const CornerEdge& e : graph.edges()) {
      EXPECT_LT(e.a, e.b);
      EXPECT_DOUBLE_EQ(e.length, 1.0);
      const Vec3 a = index.position(e.a), b = index.position(e.b);
      EXPECT_EQ(std::abs(a.x - b.x) + std::abs(a.z - b.z), 1.0f);
    }
    for (uint32_t c = 0; c < 4; ++c) EXPECT_EQ(graph.Neighbours(c).size(), 2u) << c;
  }
}

// Least distance over the graph from the corners seen from s (at their distances) to the
// corners seen from t, plus the last leg; `direct` (|s t| when t is in sight) when shorter.
// INFINITY when none. A plain Dijkstra over the graph's own adjacency: the reference the hub
// labels replace.
double GraphDistance(const CornerGraph& graph, const std::vector<SeenCorner>& from_s,
                     const std::vector<SeenCorner>& from_t, double direct) {
  std::vector<testing::DijkstraSeed> seeds;
  for (const SeenCorner& a : from_s) seeds.push_back({a.corner, a.distance});
  const std::vector<double> dist = testing::DijkstraDistances(
      graph.corner_count(), seeds, [&](uint32_t corner, testing::ArcVisitor visit) {
        for (const CornerNeighbour& n : graph.Neighbours(corner)) visit(n.corner, n.length);
      });
  double best = direct;
  for (const SeenCorner& b : from_t) best = std::min(best, dist[b.corner] + b.distance);
  return best;
}

struct AuroraGraph {
  std::shared_ptr<const NavMap> map;
  std::unique_ptr<QueryContext> ctx;
  QueryFilter filter;
  TurnCornerIndex index;
  CornerGraph graph;
};

// aurora-merged (64 m tiles) with its index and graph under `rule`, built once per rule.
const AuroraGraph& Aurora(CornerEdgeRule rule) {
  static const auto build = [](CornerEdgeRule r) {
    auto g = std::make_unique<AuroraGraph>();
    g->map = testing::AuroraMerged();
    if (g->map == nullptr) return g;
    g->ctx = testing::ContextFor(g->map);
    g->filter = ExactReadyFilter(*g->map);
    g->index = TurnCornerIndex::Build(*g->ctx, g->filter);
    g->graph = CornerGraph::Build(*g->ctx, g->filter, g->index, r);
    return g;
  };
  if (rule == CornerEdgeRule::kTautBothEnds) {
    static const std::unique_ptr<AuroraGraph> taut = build(rule);
    return *taut;
  }
  static const std::unique_ptr<AuroraGraph> either = build(rule);
  return *either;
}

// The proof the design is exact: for random pairs (and Polyanya's published queries), the
// graph distance equals the exact search's length, and both agree on what is unreachable.
void ExpectGraphDistancesExact(CornerEdgeRule rule, int pairs) {
  const AuroraGraph& g = Aurora(rule);
  ASSERT_NE(g.map, nullptr);
  ASSERT_GT(g.index.size(), 100u);
  ASSERT_GT(g.graph.edges().size(), g.index.size());
  NavQuery q(g.map);
  PathOptions po;
  po.mode = PathMode::kExact;
  std::vector<SeenCorner> from_s, from_t;
  std::mt19937 rng(2029);
  int compared = 0, unreachable = 0, direct = 0, long_pairs = 0;
  for (int i = 0; i < pairs; ++i) {
    const auto s = testing::RandomOnMap(q, g.filter, rng);
    const auto t = testing::RandomOnMap(q, g.filter, rng);
    ASSERT_TRUE(s.has_value() && t.has_value());
    const bool seen = VisibleCorners(*g.ctx, *s, g.filter, g.index, &*t, &from_s);
    VisibleCorners(*g.ctx, *t, g.filter, g.index, nullptr, &from_t);
    const double straight = std::hypot(double(s->pos.x) - t->pos.x, double(s->pos.z) - t->pos.z);
    const double got = GraphDistance(g.graph, from_s, from_t, seen ? straight : INFINITY);
    PathResult r;
    ASSERT_TRUE(q.FindPath(*s, *t, g.filter, po, &r).ok());
    if (r.status != QueryStatus::kComplete) {
      EXPECT_EQ(r.status, QueryStatus::kNoPath) << "pair " << i;
      EXPECT_EQ(got, INFINITY) << "pair " << i << ": a graph path where the search has none";
      ++unreachable;
      continue;
    }
    const double want = testing::PlanLength(r);
    EXPECT_NEAR(got, want, kRelativeTolerance * want)
        << "pair " << i << " (" << s->pos.x << ", " << s->pos.z << ") -> (" << t->pos.x << ", "
        << t->pos.z << ")";
    // The straight line is shortest whenever it is on the surface.
    if (seen) {
      EXPECT_NEAR(want, straight, kRelativeTolerance * want) << "pair " << i;
    }
    direct += seen;
    long_pairs += r.waypoints.size() > 4;
    ++compared;
  }
  EXPECT_GT(compared, pairs / 2);
  EXPECT_GT(long_pairs, compared / 4);  // the pairs bend round corners, not only in sight
  ::testing::Test::RecordProperty("unreachable", unreachable);
  ::testing::Test::RecordProperty("direct", direct);
}

TEST(CornerGraphTest, GraphDistanceIsTheExactDistanceOnAurora) {
  ExpectGraphDistancesExact(CornerEdgeRule::kSeenFromEither, testing::kUnderSanitizer ? 40 : 400);
}

// Keeping only edges taut at both ends keeps a part of the graph (and, not exact where
// corners lie on one line, is measured by bench/corner_graph_stats only).
TEST(CornerGraphTest, TautEdgesArePartOfTheGraph) {
  const AuroraGraph& taut = Aurora(CornerEdgeRule::kTautBothEnds);
  const AuroraGraph& either = Aurora(CornerEdgeRule::kSeenFromEither);
  ASSERT_NE(taut.map, nullptr);
  ASSERT_EQ(taut.index.size(), either.index.size());
  const auto& all = either.graph.edges();
  EXPECT_LT(taut.graph.edges().size(), all.size());
  for (const CornerEdge& e : taut.graph.edges()) {
    const auto it =
        std::lower_bound(all.begin(), all.end(), e, [](const CornerEdge& x, const CornerEdge& y) {
          return x.a < y.a || (x.a == y.a && x.b < y.b);
        });
    ASSERT_TRUE(it != all.end() && it->a == e.a && it->b == e.b) << e.a << "-" << e.b;
    EXPECT_EQ(it->length, e.length);
  }
}

// Polyanya's published optima for aurora (the map those lengths are for has the same
// polygons): the graph reproduces them.
TEST(CornerGraphTest, GraphDistanceMatchesPublishedAuroraLengths) {
  const AuroraGraph& g = Aurora(CornerEdgeRule::kSeenFromEither);
  ASSERT_NE(g.map, nullptr);
  const auto queries = testing::ReadExpectedFile(
      testing::SharedData("polyanya/expected/aurora_euclid_expected.csv"));
  ASSERT_FALSE(queries.empty());
  NavQuery q(g.map);
  std::vector<SeenCorner> from_s, from_t;
  const size_t step = testing::kUnderSanitizer ? 97 : 7;
  int compared = 0;
  for (size_t i = 0; i < queries.size(); i += step) {
    const auto& query = queries[i];
    if (query.length < 0) continue;
    const auto s = testing::Nearest(q, query.start, {0.01f, 1, 0.01f}, g.filter);
    const auto t = testing::Nearest(q, query.goal, {0.01f, 1, 0.01f}, g.filter);
    ASSERT_TRUE(s.has_value() && t.has_value()) << "query " << i;
    const bool seen = VisibleCorners(*g.ctx, *s, g.filter, g.index, &*t, &from_s);
    VisibleCorners(*g.ctx, *t, g.filter, g.index, nullptr, &from_t);
    const double straight = std::hypot(double(s->pos.x) - t->pos.x, double(s->pos.z) - t->pos.z);
    const double got = GraphDistance(g.graph, from_s, from_t, seen ? straight : INFINITY);
    // Six significant digits: as exact_path_test.
    EXPECT_NEAR(got, query.length, 1e-5 * std::max(query.length, 1.0)) << "query " << i;
    ++compared;
  }
  EXPECT_GT(compared, testing::kUnderSanitizer ? 20 : 300);  // of 2990 every 97th / 7th
}

}  // namespace
}  // namespace waymesh
