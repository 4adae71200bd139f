// Hub labels (core/src/exact/hub_labels.h) against a plain Dijkstra on random graphs: grids
// with random lengths and random geometric graphs, each with parts no path joins, built in
// both vertex orders. Distances, unpacked paths and many-to-many meetings must all agree.

#include "exact/hub_labels.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "support/dijkstra.h"

namespace waymesh::internal::exact {
namespace {

using Edge = HubLabels::WeightedEdge;
using Seed = HubLabels::Seed;

constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr size_t kNoBudget = std::numeric_limits<size_t>::max();
// Labels store float distances: a sum of two of them is off by a few 6e-8 relative.
constexpr double kLabelRelative = 1e-6;

struct Graph {
  uint32_t vertices = 0;
  std::vector<Edge> edges;
};

// A w x h grid with random lengths in [1, 3), a random diagonal in some cells and a few edges
// dropped, then a second, smaller grid beside it that no edge joins to the first.
Graph GridGraph(uint32_t w, uint32_t h, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> length(1, 3);
  std::uniform_int_distribution<int> percent(0, 99);
  Graph g;
  auto add_grid = [&](uint32_t first, uint32_t gw, uint32_t gh) {
    auto id = [&](uint32_t x, uint32_t y) { return first + y * gw + x; };
    for (uint32_t y = 0; y < gh; ++y) {
      for (uint32_t x = 0; x < gw; ++x) {
        if (x + 1 < gw && percent(rng) >= 5)
          g.edges.push_back({id(x, y), id(x + 1, y), length(rng)});
        if (y + 1 < gh && percent(rng) >= 5)
          g.edges.push_back({id(x, y), id(x, y + 1), length(rng)});
        if (x + 1 < gw && y + 1 < gh && percent(rng) < 30) {
          g.edges.push_back({id(x, y), id(x + 1, y + 1), length(rng) * 1.4});
        }
      }
    }
  };
  add_grid(0, w, h);
  add_grid(w * h, w / 2, h / 2);
  g.vertices = w * h + (w / 2) * (h / 2);
  std::shuffle(g.edges.begin(), g.edges.end(), rng);
  return g;
}

// n points on two 45 x 100 m islands 10 m apart (even points left, odd right), joined when
// closer than `radius` (< 10) by their Euclidean distance: the shape of a corner visibility
// graph, with parts no path joins.
Graph GeometricGraph(uint32_t n, double radius, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> across(0, 45), along(0, 100);
  std::vector<std::pair<double, double>> points(n);
  for (uint32_t i = 0; i < n; ++i) points[i] = {across(rng) + (i % 2) * 55, along(rng)};
  Graph g{n, {}};
  for (uint32_t a = 0; a < n; ++a) {
    for (uint32_t b = a + 1; b < n; ++b) {
      const double d =
          std::hypot(points[a].first - points[b].first, points[a].second - points[b].second);
      if (d < radius) g.edges.push_back({a, b, d});
    }
  }
  return g;
}

// Distances from `source` to every vertex by a plain Dijkstra (the oracle).
std::vector<double> Dijkstra(const Graph& g, uint32_t source) {
  std::vector<std::vector<std::pair<uint32_t, double>>> adj(g.vertices);
  for (const Edge& e : g.edges) {
    adj[e.a].push_back({e.b, e.length});
    adj[e.b].push_back({e.a, e.length});
  }
  const testing::DijkstraSeed seed[] = {{source, 0}};
  return testing::DijkstraDistances(g.vertices, seed, [&](uint32_t u, testing::ArcVisitor visit) {
    for (const auto& [w, length] : adj[u]) visit(w, length);
  });
}

std::vector<std::vector<double>> AllPairs(const Graph& g) {
  std::vector<std::vector<double>> d(g.vertices);
  for (uint32_t s = 0; s < g.vertices; ++s) d[s] = Dijkstra(g, s);
  return d;
}

void ExpectSameDistance(double labels, double oracle, const std::string& what) {
  if (std::isinf(oracle)) {
    EXPECT_TRUE(std::isinf(labels)) << what << ": " << labels << " for no path";
  } else {
    EXPECT_NEAR(labels, oracle, kLabelRelative * std::max(1.0, oracle)) << what;
  }
}

// The length of `path` through the shortest edge joining each step, or -1 (with a failure)
// when a step is not an edge.
double PathLength(const Graph& g, const std::vector<uint32_t>& path) {
  double total = 0;
  for (size_t i = 1; i < path.size(); ++i) {
    double step = kInfinity;
    for (const Edge& e : g.edges) {
      if ((e.a == path[i - 1] && e.b == path[i]) || (e.b == path[i - 1] && e.a == path[i])) {
        step = std::min(step, e.length);
      }
    }
    if (std::isinf(step)) {
      ADD_FAILURE() << "step " << path[i - 1] << " -> " << path[i] << " is no edge";
      return -1;
    }
    total += step;
  }
  return total;
}

HubLabels BuildOrDie(const Graph& g, HubLabels::VertexOrder order) {
  auto labels = HubLabels::Build(g.vertices, g.edges, kNoBudget, order);
  EXPECT_TRUE(labels.ok()) << labels.status();
  return *std::move(labels);
}

struct RandomGraphCase {
  std::string name;
  std::function<Graph()> make;
};
void PrintTo(const RandomGraphCase& c, std::ostream* os) { *os << c.name; }

class HubLabelsRandomTest
    : public ::testing::TestWithParam<std::tuple<RandomGraphCase, HubLabels::VertexOrder>> {
 protected:
  Graph graph_ = std::get<0>(GetParam()).make();
  HubLabels labels_ = BuildOrDie(graph_, std::get<1>(GetParam()));
  std::vector<std::vector<double>> oracle_ = AllPairs(graph_);
};

TEST_P(HubLabelsRandomTest, DistanceEqualsDijkstraForAllPairs) {
  ASSERT_EQ(labels_.vertices(), graph_.vertices);
  for (uint32_t u = 0; u < graph_.vertices; ++u) {
    for (uint32_t v = 0; v < graph_.vertices; ++v) {
      ExpectSameDistance(labels_.Distance(u, v), oracle_[u][v],
                         "d(" + std::to_string(u) + ", " + std::to_string(v) + ")");
      if (HasFailure()) return;  // one pair is enough to see what went wrong
    }
  }
}

// Pruning is the point: a label holding every vertex would pass the distance test too.
TEST_P(HubLabelsRandomTest, LabelsArePruned) {
  EXPECT_LT(labels_.mean_label_size(), graph_.vertices / 4.0);
  EXPECT_GE(labels_.max_label_size(), 1u);
  EXPECT_EQ(labels_.label_entries(), size_t(labels_.mean_label_size() * graph_.vertices + 0.5));
}

TEST_P(HubLabelsRandomTest, PathIsAGraphPathOfTheDistance) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<uint32_t> vertex(0, graph_.vertices - 1);
  std::vector<uint32_t> path;
  for (int i = 0; i < 2000; ++i) {
    const uint32_t u = vertex(rng), v = vertex(rng);
    labels_.Path(u, v, &path);
    if (std::isinf(oracle_[u][v])) {
      EXPECT_TRUE(path.empty()) << u << " -> " << v << " joined by a path of " << path.size();
      continue;
    }
    ASSERT_FALSE(path.empty()) << u << " -> " << v;
    EXPECT_EQ(path.front(), u);
    EXPECT_EQ(path.back(), v);
    ExpectSameDistance(PathLength(graph_, path), oracle_[u][v],
                       "path " + std::to_string(u) + " -> " + std::to_string(v));
    if (HasFailure()) return;
  }
}

TEST_P(HubLabelsRandomTest, BestMeetingEqualsBruteForceOverSeedPairs) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<uint32_t> vertex(0, graph_.vertices - 1);
  std::uniform_int_distribution<uint32_t> seeds(1, 6);
  std::uniform_real_distribution<double> offset(0, 20);
  HubLabels::Scratch scratch;  // reused: stamps must keep queries apart
  std::vector<Seed> sources, targets;
  std::vector<uint32_t> path;
  for (int query = 0; query < 500; ++query) {
    sources.resize(seeds(rng));
    targets.resize(seeds(rng));
    for (Seed& s : sources) s = {vertex(rng), offset(rng)};
    for (Seed& t : targets) t = {vertex(rng), offset(rng)};
    double brute = kInfinity;
    for (const Seed& s : sources) {
      for (const Seed& t : targets) {
        brute = std::min(brute, s.offset + oracle_[s.vertex][t.vertex] + t.offset);
      }
    }
    const auto meeting = labels_.BestMeeting(sources, targets, &scratch);
    if (std::isinf(brute)) {
      EXPECT_FALSE(meeting.has_value()) << "query " << query;
      continue;
    }
    ASSERT_TRUE(meeting.has_value()) << "query " << query;
    const std::string what = "query " + std::to_string(query);
    ExpectSameDistance(meeting->length, brute, what);
    // The indices and hub it names realise that length.
    ASSERT_LT(meeting->source, sources.size());
    ASSERT_LT(meeting->target, targets.size());
    const Seed& s = sources[meeting->source];
    const Seed& t = targets[meeting->target];
    ExpectSameDistance(s.offset + oracle_[s.vertex][t.vertex] + t.offset, brute, what);
    ExpectSameDistance(oracle_[s.vertex][meeting->hub] + oracle_[meeting->hub][t.vertex],
                       oracle_[s.vertex][t.vertex], what + " hub");
    labels_.PathVia(s.vertex, meeting->hub, t.vertex, &path);
    ASSERT_FALSE(path.empty());
    EXPECT_EQ(path.front(), s.vertex);
    EXPECT_EQ(path.back(), t.vertex);
    ExpectSameDistance(PathLength(graph_, path), oracle_[s.vertex][t.vertex], what + " path");
    if (HasFailure()) return;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Graphs, HubLabelsRandomTest,
    ::testing::Combine(
        ::testing::Values(
            RandomGraphCase{"Grid18x14Seed1", [] { return GridGraph(18, 14, 1); }},
            RandomGraphCase{"Grid12x25Seed2", [] { return GridGraph(12, 25, 2); }},
            RandomGraphCase{"Geometric300Seed3", [] { return GeometricGraph(300, 9.5, 3); }},
            RandomGraphCase{"Geometric250Seed4", [] { return GeometricGraph(250, 8, 4); }}),
        ::testing::Values(HubLabels::VertexOrder::kDegree,
                          HubLabels::VertexOrder::kSampledTreeCover)),
    [](const auto& info) {
      return std::get<0>(info.param).name +
             (std::get<1>(info.param) == HubLabels::VertexOrder::kDegree ? "Degree" : "TreeCover");
    });

// The random geometric graphs must really have parts no path joins, or the disconnected
// cases above test nothing.
TEST(HubLabelsTest, GeometricCasesHaveSeveralComponents) {
  for (const Graph& g : {GeometricGraph(300, 9.5, 3), GeometricGraph(250, 8, 4)}) {
    const std::vector<double> d = Dijkstra(g, 0);
    EXPECT_TRUE(std::any_of(d.begin(), d.end(), [](double x) { return std::isinf(x); }));
  }
}

// Built in the default order, as the budgeted builds below are.
TEST(HubLabelsTest, BudgetErrorNamesTheBudget) {
  const Graph g = GridGraph(10, 10, 5);
  const HubLabels labels = BuildOrDie(g, HubLabels::VertexOrder::kSampledTreeCover);
  // The exact size fits; one byte less does not, and neither does a tiny budget.
  EXPECT_TRUE(HubLabels::Build(g.vertices, g.edges, labels.bytes()).ok());
  for (size_t budget : {labels.bytes() - 1, size_t(100)}) {
    const auto over = HubLabels::Build(g.vertices, g.edges, budget);
    ASSERT_FALSE(over.ok()) << budget;
    EXPECT_EQ(over.status().code(), absl::StatusCode::kResourceExhausted);
    EXPECT_NE(over.status().message().find(std::to_string(budget)), std::string::npos)
        << over.status();
  }
}

TEST(HubLabelsTest, RejectsBadEdges) {
  const Edge out_of_range[] = {{0, 3, 1.0}};
  EXPECT_EQ(HubLabels::Build(3, out_of_range, kNoBudget).status().code(),
            absl::StatusCode::kInvalidArgument);
  for (double length : {-1.0, kInfinity, std::nan("")}) {
    const Edge bad[] = {{0, 1, length}};
    EXPECT_EQ(HubLabels::Build(2, bad, kNoBudget).status().code(),
              absl::StatusCode::kInvalidArgument)
        << length;
  }
}

TEST(HubLabelsTest, EmptyGraph) {
  const auto labels = HubLabels::Build(0, {}, kNoBudget);
  ASSERT_TRUE(labels.ok()) << labels.status();
  EXPECT_EQ(labels->vertices(), 0u);
  EXPECT_EQ(labels->label_entries(), 0u);
  HubLabels::Scratch scratch;
  EXPECT_FALSE(labels->BestMeeting({}, {}, &scratch).has_value());
}

TEST(HubLabelsTest, SingleVertex) {
  const auto labels = HubLabels::Build(1, {}, kNoBudget);
  ASSERT_TRUE(labels.ok()) << labels.status();
  EXPECT_EQ(labels->Distance(0, 0), 0);
  std::vector<uint32_t> path;
  labels->Path(0, 0, &path);
  EXPECT_EQ(path, std::vector<uint32_t>{0});
  HubLabels::Scratch scratch;
  const Seed source[] = {{0, 1.5}}, target[] = {{0, 2.0}};
  const auto meeting = labels->BestMeeting(source, target, &scratch);
  ASSERT_TRUE(meeting.has_value());
  EXPECT_EQ(meeting->length, 3.5);
  EXPECT_EQ(meeting->hub, 0u);
}

// Zero-length edges (seam copies of one corner) make distance ties everywhere; a pruned
// Dijkstra may even prune its own root. Self loops are ignored.
TEST(HubLabelsTest, ZeroLengthEdgesAndSelfLoops) {
  const Graph g{6,
                {{0, 1, 0.0},
                 {1, 2, 0.0},
                 {2, 3, 4.0},
                 {3, 4, 0.0},
                 {4, 5, 1.0},
                 {0, 5, 7.0},
                 {5, 5, 0.0},
                 {2, 2, 3.0}}};
  const auto oracle = AllPairs(g);
  for (auto order : {HubLabels::VertexOrder::kDegree, HubLabels::VertexOrder::kSampledTreeCover}) {
    const HubLabels labels = BuildOrDie(g, order);
    std::vector<uint32_t> path;
    for (uint32_t u = 0; u < g.vertices; ++u) {
      for (uint32_t v = 0; v < g.vertices; ++v) {
        ExpectSameDistance(labels.Distance(u, v), oracle[u][v], "zero-length d");
        labels.Path(u, v, &path);
        ASSERT_FALSE(path.empty());
        ExpectSameDistance(PathLength(g, path), oracle[u][v], "zero-length path");
      }
    }
  }
}

TEST(HubLabelsTest, ParallelEdgesUseTheShortest) {
  const Graph g{3, {{0, 1, 5.0}, {1, 0, 2.0}, {0, 1, 3.0}, {1, 2, 1.0}, {2, 1, 0.5}}};
  const HubLabels labels = BuildOrDie(g, HubLabels::VertexOrder::kDegree);
  EXPECT_FLOAT_EQ(labels.Distance(0, 1), 2.0);
  EXPECT_FLOAT_EQ(labels.Distance(0, 2), 2.5);
  std::vector<uint32_t> path;
  labels.Path(2, 0, &path);
  EXPECT_EQ(path, (std::vector<uint32_t>{2, 1, 0}));
}

// One scratch serves labels of different sizes: slots of a larger graph are added unstamped.
TEST(HubLabelsTest, ScratchMovesBetweenLabelsOfDifferentSizes) {
  const Graph small = GridGraph(4, 4, 8), large = GridGraph(16, 16, 9);
  const HubLabels small_labels = BuildOrDie(small, HubLabels::VertexOrder::kDegree);
  const HubLabels large_labels = BuildOrDie(large, HubLabels::VertexOrder::kDegree);
  const auto large_oracle = AllPairs(large);
  HubLabels::Scratch scratch;
  const Seed a[] = {{0, 0}}, b[] = {{5, 0}};
  ASSERT_TRUE(small_labels.BestMeeting(a, b, &scratch).has_value());
  // Both in the small grid beside the large one, at the end of the vertex numbers.
  const uint32_t last = large.vertices - 1, other = large.vertices - 20;
  ASSERT_FALSE(std::isinf(large_oracle[last][other]));
  const Seed s[] = {{last, 1}}, t[] = {{other, 2}};
  const auto meeting = large_labels.BestMeeting(s, t, &scratch);
  ASSERT_TRUE(meeting.has_value());
  ExpectSameDistance(meeting->length, 3 + large_oracle[last][other], "large");
  EXPECT_GT(scratch.hubs_reached(), 0u);
}

}  // namespace
}  // namespace waymesh::internal::exact
