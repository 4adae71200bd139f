// What the cluster graph's abstract search works on, and what a smaller search over it would
// cost (issue 31, fifth round; docs/PERFORMANCE.md). For each map: the entrance graph (entrances,
// pairs, degrees), how many of its pairs a contraction hierarchy would have to keep (those no
// other route beats: a CH stores each of them once, beside its shortcuts), a second level of
// super-clusters (k x k clusters; their border entrances and the costs between them on the
// entrance graph, exact overlay) with its bytes and build time, and, on random long pairs, the
// abstract search as today's bound drives it (settled entrances, its bound at the start against
// the optimum) against the same search over the second level (connections, level-2 nodes,
// unpacking of each level-2 edge inside its super-cluster).
// Run:
//   build/dev/bench/entrance_graph_stats --map world16=/tmp/wt31_world16.wmesh [--pairs 40]
//       [--seed 1] [--super 2,4,8]
// The searches here are this program's own (std heaps, no landmark goal setup): compare their
// counts, not their times, with the query's.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "common/flags.h"
#include "common/map_without_tables.h"
#include "common/stopwatch.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/format/map_file.h"

namespace {

using waymesh::ClusterGraph;
using waymesh::bench::Stopwatch;

constexpr float kLongPath = 500;  // metres (plan view), as hierarchy_bench
constexpr int kDrawsPerPair = 200;
// Routes binned by their legs (settled entrances against route length).
constexpr size_t kBins = 5;
constexpr double kLegsPerBin = 20;
// Slacks of the ideal bound (exact graph distance to the goal, shrunk by this share).
constexpr std::array<float, 4> kSlacks = {0.0f, 0.01f, 0.02f, 0.05f};

struct Args {
  std::string map;  // NAME=FILE.wmesh
  int pairs = 40;
  uint64_t seed = 1;
  std::vector<uint32_t> supers = {2, 4, 8};
};

Args ParseArgs(int argc, char** argv) {
  Args a;
  CLI::App app{"The entrance graph and estimates of smaller abstract searches"};
  app.add_option("--map", a.map, "NAME=FILE.wmesh")->required();
  app.add_option("--pairs", a.pairs, "random pairs farther apart than 500 m")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  app.add_option("--seed", a.seed, "seed of the random pairs")->capture_default_str();
  app.add_option("--super", a.supers, "clusters per super-cluster side (level 2)")
      ->delimiter(',')
      ->check(CLI::Range(2u, 64u));
  waymesh::bench::ParseFlagsOrExit(app, argc, argv);
  if (a.map.find('=') == std::string::npos) {
    std::fprintf(stderr, "--map: expected NAME=FILE.wmesh, got %s\n", a.map.c_str());
    std::exit(2);
  }
  return a;
}

// One direction of an abstract edge: to entrance `to`, walking inside `cluster`.
struct Arc {
  uint32_t to;
  float cost;
  uint32_t cluster;
};

// The entrance graph as adjacency lists (a pair of entrances sharing two clusters gives two
// arcs, one per cluster).
std::vector<std::vector<Arc>> Adjacency(const ClusterGraph& g) {
  std::vector<std::vector<Arc>> adj(g.entrance_count());
  for (uint32_t c = 0; c < g.cluster_count(); ++c) {
    const auto m = g.EntrancesOf(c);
    for (uint32_t i = 0; i < m.size(); ++i) {
      for (uint32_t j = i + 1; j < m.size(); ++j) {
        const float cost = g.Cost(c, i, j);
        if (!std::isfinite(cost)) continue;
        adj[m[i]].push_back({m[j], cost, c});
        adj[m[j]].push_back({m[i], cost, c});
      }
    }
  }
  return adj;
}

using HeapItem = std::pair<float, uint32_t>;
using MinHeap = std::priority_queue<HeapItem, std::vector<HeapItem>, std::greater<>>;

// Dijkstra over the entrance graph with per-query stamps; `allowed(cluster)` filters arcs.
class Dijkstra {
 public:
  explicit Dijkstra(uint32_t n) : dist_(n, INFINITY), stamp_(n, 0) {}
  void Begin() { ++gen_; }
  float Dist(uint32_t v) const { return stamp_[v] == gen_ ? dist_[v] : INFINITY; }
  bool Relax(uint32_t v, float d) {
    if (!(d < Dist(v))) return false;
    dist_[v] = d;
    stamp_[v] = gen_;
    heap_.push({d, v});
    return true;
  }
  // Settles up to cost `bound` (or everything); returns the settled count.
  template <class Allowed>
  uint32_t Run(const std::vector<std::vector<Arc>>& adj, float bound, Allowed allowed,
               uint64_t* relaxed) {
    uint32_t settled = 0;
    while (!heap_.empty()) {
      const auto [d, u] = heap_.top();
      heap_.pop();
      if (d != Dist(u)) continue;
      if (d > bound) break;
      ++settled;
      for (const Arc& a : adj[u]) {
        if (!allowed(a.cluster)) continue;
        ++*relaxed;
        Relax(a.to, d + a.cost);
      }
    }
    heap_ = MinHeap();
    return settled;
  }

 private:
  std::vector<float> dist_;
  std::vector<uint32_t> stamp_;
  uint32_t gen_ = 0;
  MinHeap heap_;
};

// Of the entrance graph's pairs, how many some other route beats (strictly, or within 1 %):
// a CH with exact witness searches must keep every other pair as an upward edge.
void DominatedPairs(const std::vector<std::vector<Arc>>& adj) {
  const uint32_t n = uint32_t(adj.size());
  Dijkstra d(n);
  uint64_t pairs = 0, strict = 0, within1 = 0, relaxed = 0;
  Stopwatch w;
  for (uint32_t u = 0; u < n; ++u) {
    float bound = 0;
    for (const Arc& a : adj[u]) bound = std::max(bound, a.cost);
    d.Begin();
    d.Relax(u, 0);
    d.Run(
        adj, bound, [](uint32_t) { return true; }, &relaxed);
    // Shortest distance avoiding the direct arc is unknown here; a pair is beaten when the
    // graph distance is below its arc, or ties it through another route (checked by 2 hops).
    for (const Arc& a : adj[u]) {
      if (a.to < u) continue;
      ++pairs;
      const float best = d.Dist(a.to);
      if (best < a.cost * (1 - 1e-5f)) {
        ++strict;
        ++within1;
        continue;
      }
      bool near = false;
      for (const Arc& b : adj[u]) {
        if (b.to == a.to) continue;
        for (const Arc& c : adj[b.to]) {
          if (c.to == a.to && b.cost + c.cost <= a.cost * 1.01f) near = true;
        }
        if (near) break;
      }
      within1 += near ? 1 : 0;
    }
  }
  std::printf(
      "- CH lower bound: %llu arcs' pairs (u < v, per cluster), beaten strictly by another "
      "route: %llu (%.1f %%), within 1 %% by a 2-hop route: %llu (%.1f %%); kept at least "
      "%llu pairs = %.2f MB at 4 B (16-bit target + 16-bit cost) per upward edge, before any "
      "shortcut (%.0f ms)\n",
      (unsigned long long)pairs, (unsigned long long)strict, 100.0 * double(strict) / double(pairs),
      (unsigned long long)within1, 100.0 * double(within1) / double(pairs),
      (unsigned long long)(pairs - strict), double(pairs - strict) * 4 / 1e6, w.ElapsedMs());
}

// The square column and row of each cluster (of its first tile), from the map's grid.
std::vector<std::pair<int32_t, int32_t>> ClusterCells(const waymesh::NavMap& map,
                                                      const ClusterGraph& g) {
  std::vector<std::pair<int32_t, int32_t>> cell(g.cluster_count(), {INT32_MAX, INT32_MAX});
  for (uint32_t t = 0; t < g.tile_count(); ++t) {
    auto& c = cell[g.ClusterOf(t)];
    c.first = std::min(c.first, map.summary(t).grid_x / int32_t(g.tiles_per_side()));
    c.second = std::min(c.second, map.summary(t).grid_z / int32_t(g.tiles_per_side()));
  }
  return cell;
}

// A contraction hierarchy estimated by nested dissection (the order CHs on planar graphs
// approach): the cluster grid is cut in halves along its longer side, recursively; each cut's
// separator is the entrances joining clusters on both sides inside the rectangle. Contracted
// in that order (separators last), a separator's entrances end up joined to each other (a
// clique, s (s - 1) / 2 upward edges at least) and an upward search from a point settles the
// separators of every rectangle it lies in (and relaxes their cliques).
struct Dissection {
  const std::vector<std::pair<int32_t, int32_t>>* cells;
  const ClusterGraph* g;
  std::vector<uint32_t> path_sum;  // per cluster: separator entrances above it
  std::vector<double> path_arcs;   // per cluster: clique arcs of those separators
  double clique_edges = 0;

  void Cut(std::vector<uint32_t> clusters, std::vector<uint32_t> entrances) {
    if (clusters.size() <= 1) return;
    int32_t x0 = INT32_MAX, x1 = INT32_MIN, z0 = INT32_MAX, z1 = INT32_MIN;
    for (const uint32_t c : clusters) {
      x0 = std::min(x0, (*cells)[c].first);
      x1 = std::max(x1, (*cells)[c].first);
      z0 = std::min(z0, (*cells)[c].second);
      z1 = std::max(z1, (*cells)[c].second);
    }
    const bool by_x = x1 - x0 >= z1 - z0;
    const int32_t mid = by_x ? (x0 + x1 + 1) / 2 : (z0 + z1 + 1) / 2;
    const auto low = [&](uint32_t c) {
      return (by_x ? (*cells)[c].first : (*cells)[c].second) < mid;
    };
    std::vector<uint32_t> ca, cb, ea, eb;
    uint64_t sep = 0;
    for (const uint32_t c : clusters) (low(c) ? ca : cb).push_back(c);
    for (const uint32_t e : entrances) {
      const auto& en = g->entrance(e);
      const bool l0 = low(g->ClusterOn(en, 0)), l1 = low(g->ClusterOn(en, 1));
      if (l0 != l1) {
        ++sep;
      } else {
        (l0 ? ea : eb).push_back(e);
      }
    }
    clique_edges += double(sep) * double(sep > 0 ? sep - 1 : 0) / 2;
    for (const uint32_t c : clusters) {
      path_sum[c] += uint32_t(sep);
      path_arcs[c] += double(sep) * double(sep);
    }
    Cut(std::move(ca), std::move(ea));
    Cut(std::move(cb), std::move(eb));
  }
};

void EstimateContraction(const waymesh::NavMap& map, const ClusterGraph& g) {
  const auto cells = ClusterCells(map, g);
  Dissection d{&cells, &g, std::vector<uint32_t>(g.cluster_count(), 0),
               std::vector<double>(g.cluster_count(), 0)};
  std::vector<uint32_t> all_clusters(g.cluster_count()), all_entrances(g.entrance_count());
  for (uint32_t c = 0; c < g.cluster_count(); ++c) all_clusters[c] = c;
  for (uint32_t e = 0; e < g.entrance_count(); ++e) all_entrances[e] = e;
  d.Cut(all_clusters, all_entrances);
  double settled = 0, arcs = 0;
  for (uint32_t c = 0; c < g.cluster_count(); ++c) {
    settled += d.path_sum[c];
    arcs += d.path_arcs[c];
  }
  const double n = double(g.cluster_count());
  std::printf(
      "- CH by nested dissection: separator cliques alone %.0f upward edges (%.2f MB at 4 B); "
      "an upward search settles about %.0f entrances per side (mean over start clusters) and "
      "relaxes about %.0f arcs; both sides: %.0f settled, %.0f arcs\n",
      d.clique_edges, d.clique_edges * 4 / 1e6, settled / n, arcs / n, 2 * settled / n,
      2 * arcs / n);
}

// A second level: super-clusters of k x k clusters, their border entrances, and per super-
// cluster the exact costs between its border entrances over the entrance graph kept inside it.
struct Level2 {
  uint32_t k = 0;
  std::vector<uint32_t> super_of;             // per cluster
  std::vector<std::vector<uint32_t>> border;  // per super-cluster: its border entrances
  std::vector<std::vector<float>> cost;       // per super-cluster: b x b
  std::vector<int32_t> slot0, slot1;          // per entrance: its slot in its supers' borders
  uint64_t pairs = 0, relaxed = 0;
  double build_ms = 0;
};

Level2 BuildLevel2(const waymesh::NavMap& map, const ClusterGraph& g,
                   const std::vector<std::vector<Arc>>& adj, uint32_t k) {
  Level2 l;
  l.k = k;
  Stopwatch w;
  const auto cells = ClusterCells(map, g);
  int32_t min_x = INT32_MAX, min_z = INT32_MAX, max_x = INT32_MIN;
  for (const auto& [x, z] : cells) {
    min_x = std::min(min_x, x);
    min_z = std::min(min_z, z);
    max_x = std::max(max_x, x);
  }
  const int32_t columns = (max_x - min_x) / int32_t(k) + 1;
  for (const auto& [x, z] : cells) {
    const int32_t id = ((z - min_z) / int32_t(k)) * columns + (x - min_x) / int32_t(k);
    l.super_of.push_back(uint32_t(id));
  }
  const uint32_t supers = *std::max_element(l.super_of.begin(), l.super_of.end()) + 1;
  l.border.resize(supers);
  l.slot0.assign(g.entrance_count(), -1);
  l.slot1.assign(g.entrance_count(), -1);
  for (uint32_t e = 0; e < g.entrance_count(); ++e) {
    const auto& en = g.entrance(e);
    const uint32_t s0 = l.super_of[g.ClusterOn(en, 0)], s1 = l.super_of[g.ClusterOn(en, 1)];
    if (s0 == s1) continue;
    l.slot0[e] = int32_t(l.border[s0].size());
    l.border[s0].push_back(e);
    l.slot1[e] = int32_t(l.border[s1].size());
    l.border[s1].push_back(e);
  }
  Dijkstra d(g.entrance_count());
  l.cost.resize(supers);
  for (uint32_t s = 0; s < supers; ++s) {
    const auto& b = l.border[s];
    l.cost[s].assign(b.size() * b.size(), INFINITY);
    l.pairs += b.size() * (b.size() - (b.empty() ? 0 : 1)) / 2;
    for (uint32_t i = 0; i < b.size(); ++i) {
      d.Begin();
      d.Relax(b[i], 0);
      d.Run(
          adj, INFINITY, [&](uint32_t c) { return l.super_of[c] == s; }, &l.relaxed);
      for (uint32_t j = 0; j < b.size(); ++j) l.cost[s][i * b.size() + j] = d.Dist(b[j]);
    }
  }
  l.build_ms = w.ElapsedMs();
  return l;
}

// The slot of entrance `e` among super-cluster `s`'s border entrances (-1: not on its border).
int32_t SlotIn(const Level2& l, const ClusterGraph& g, uint32_t e, uint32_t s) {
  const auto& en = g.entrance(e);
  if (l.slot0[e] >= 0 && l.super_of[g.ClusterOn(en, 0)] == s) return l.slot0[e];
  if (l.slot1[e] >= 0 && l.super_of[g.ClusterOn(en, 1)] == s) return l.slot1[e];
  return -1;
}

// One long pair: its ends, their clusters and their costs to those clusters' entrances.
struct Query {
  waymesh::SurfacePoint a, b;      // start, goal
  uint32_t from, to;               // their clusters
  std::vector<float> start, goal;  // per slot of from's / to's entrances
};

struct Totals {
  double n = 0, settled = 0, relaxed = 0, legs = 0, h_start = 0, straight = 0, us = 0,
         dijkstra_settled = 0;
};

// Today's kind of abstract A*: multi-source from the start's entrances, bound h, reopening
// (exact). Returns the optimum; counts settled pops and relaxed arcs.
float AbstractAStar(const ClusterGraph& g, const std::vector<std::vector<Arc>>& adj, const Query& q,
                    const std::vector<float>& h, Totals* t) {
  const uint32_t n = g.entrance_count();
  std::vector<float> dist(n + 1, INFINITY);
  std::vector<uint32_t> parent(n + 1, UINT32_MAX);
  MinHeap heap;
  const auto firsts = g.EntrancesOf(q.from);
  for (uint32_t i = 0; i < firsts.size(); ++i) {
    if (q.start[i] < dist[firsts[i]]) {
      dist[firsts[i]] = q.start[i];
      heap.push({q.start[i] + h[firsts[i]], firsts[i]});
    }
  }
  const auto goals = g.EntrancesOf(q.to);
  std::vector<float> to_goal(n, INFINITY);
  for (uint32_t i = 0; i < goals.size(); ++i) to_goal[goals[i]] = q.goal[i];
  while (!heap.empty()) {
    const auto [f, u] = heap.top();
    heap.pop();
    if (u == n) {
      uint32_t legs = 1;
      for (uint32_t v = parent[n]; v != UINT32_MAX; v = parent[v]) ++legs;
      t->legs += legs;
      return dist[n];
    }
    if (f != dist[u] + h[u]) continue;
    ++t->settled;
    for (const Arc& a : adj[u]) {
      ++t->relaxed;
      const float d = dist[u] + a.cost;
      if (d < dist[a.to]) {
        dist[a.to] = d;
        parent[a.to] = u;
        heap.push({d + h[a.to], a.to});
      }
    }
    if (std::isfinite(to_goal[u]) && dist[u] + to_goal[u] < dist[n]) {
      dist[n] = dist[u] + to_goal[u];
      parent[n] = u;
      heap.push({dist[n], n});
    }
  }
  return INFINITY;
}

// The same optimum through the second level: Dijkstra inside the start's and the goal's
// super-clusters to their borders, A* over border entrances (h as today), and a search
// inside each level-2 edge's super-cluster to unpack it. Counts each part.
struct Level2Totals {
  double connect_settled = 0, settled = 0, relaxed = 0, unpack_settled = 0, edges = 0, cost = 0,
         us = 0, n = 0, mismatches = 0, inexact = 0;
};

float Level2AStar(const ClusterGraph& g, const std::vector<std::vector<Arc>>& adj, const Level2& l,
                  const Query& q, const std::vector<float>& h, Dijkstra& dj, Level2Totals* t) {
  const uint32_t s_from = l.super_of[q.from], s_to = l.super_of[q.to];
  uint64_t relaxed = 0;
  // Connections: start side to s_from's border, goal side from s_to's border.
  const auto seed = [&](uint32_t c, const std::vector<float>& costs) {
    dj.Begin();
    const auto m = g.EntrancesOf(c);
    for (uint32_t i = 0; i < m.size(); ++i) {
      if (std::isfinite(costs[i])) dj.Relax(m[i], costs[i]);
    }
  };
  seed(q.from, q.start);
  t->connect_settled += dj.Run(
      adj, INFINITY, [&](uint32_t c) { return l.super_of[c] == s_from; }, &relaxed);
  std::vector<float> out_start(l.border[s_from].size());
  for (uint32_t i = 0; i < out_start.size(); ++i) out_start[i] = dj.Dist(l.border[s_from][i]);
  seed(q.to, q.goal);
  t->connect_settled += dj.Run(
      adj, INFINITY, [&](uint32_t c) { return l.super_of[c] == s_to; }, &relaxed);
  std::vector<float> in_goal(l.border[s_to].size());
  for (uint32_t i = 0; i < in_goal.size(); ++i) in_goal[i] = dj.Dist(l.border[s_to][i]);
  // A* over border entrances (node ids: entrance ids; goal: n).
  const uint32_t n = g.entrance_count();
  std::vector<float> dist(n + 1, INFINITY);
  std::vector<uint32_t> parent(n + 1, UINT32_MAX), via(n + 1, 0);
  MinHeap heap;
  for (uint32_t i = 0; i < out_start.size(); ++i) {
    const uint32_t e = l.border[s_from][i];
    if (out_start[i] < dist[e]) {
      dist[e] = out_start[i];
      heap.push({dist[e] + h[e], e});
    }
  }
  while (!heap.empty()) {
    const auto [f, u] = heap.top();
    heap.pop();
    if (u == n) break;
    if (f != dist[u] + h[u]) continue;
    ++t->settled;
    for (int side = 0; side < 2; ++side) {
      const uint32_t s = l.super_of[g.ClusterOn(g.entrance(u), side)];
      const int32_t i = SlotIn(l, g, u, s);
      const auto& b = l.border[s];
      for (uint32_t j = 0; j < b.size(); ++j) {
        ++t->relaxed;
        const float d = dist[u] + l.cost[s][i * b.size() + j];
        if (d < dist[b[j]]) {
          dist[b[j]] = d;
          parent[b[j]] = u;
          via[b[j]] = s;
          heap.push({d + h[b[j]], b[j]});
        }
      }
      if (s == s_to && std::isfinite(in_goal[i]) && dist[u] + in_goal[i] < dist[n]) {
        dist[n] = dist[u] + in_goal[i];
        parent[n] = u;
        heap.push({dist[n], n});
      }
    }
  }
  // Unpacking: each level-2 edge by a Dijkstra inside its super-cluster, stopped at its end.
  for (uint32_t v = parent[n]; v != UINT32_MAX && parent[v] != UINT32_MAX; v = parent[v]) {
    ++t->edges;
    const uint32_t u = parent[v], s = via[v];
    dj.Begin();
    dj.Relax(u, 0);
    t->unpack_settled += dj.Run(
        adj, l.cost[s][SlotIn(l, g, u, s) * l.border[s].size() + SlotIn(l, g, v, s)],
        [&](uint32_t c) { return l.super_of[c] == s; }, &relaxed);
  }
  return dist[n];
}

// The map with its search tables, its cluster graph as adjacency lists, and what the bounds
// of a query need.
struct Study {
  std::shared_ptr<const waymesh::NavMap> map;
  const waymesh::SearchTables* tables = nullptr;
  double graph_ms = 0;
  std::vector<std::vector<Arc>> adj;
  float scale = 1;     // cheapest area cost of the default filter (the straight-line bound)
  float lm_scale = 1;  // LandmarkTable::FilterScale of the default filter

  const ClusterGraph& graph() const { return tables->clusters; }
  uint32_t Global(waymesh::PolyIndex p) const { return tables->polygon_bases[p.tile] + p.poly; }
};

// Loads `path` and builds its tables as the service does (the graph timed); exits on a map
// that does not load or has no graph.
Study Load(const std::string& path) {
  const auto loaded = waymesh::bench::LoadMapWithoutTables(path);
  const waymesh::NavMap& m = *loaded;
  auto tables = std::make_shared<waymesh::SearchTables>();
  tables->landmarks = waymesh::LandmarkTable::Build(m);
  tables->dead_ends = waymesh::DeadEndTable::Build(m);
  tables->polygon_bases = m.PolygonBases();
  Study s;
  Stopwatch w;
  tables->clusters = ClusterGraph::Build(m);
  s.graph_ms = w.ElapsedMs();
  s.map = std::make_shared<const waymesh::NavMap>(m, tables);
  s.tables = s.map->search_tables();
  if (s.graph().empty()) {
    std::fprintf(stderr,
                 "%s: the map has no cluster graph (fewer than %u clusters, or too many "
                 "parts in one)\n",
                 path.c_str(), ClusterGraph::kMinClusters);
    std::exit(1);
  }
  s.adj = Adjacency(s.graph());
  const waymesh::QueryFilter filter(s.map->info());
  for (uint64_t mask = filter.area_mask(); mask != 0; mask &= mask - 1) {
    s.scale = std::min(s.scale, filter.Cost(uint8_t(__builtin_ctzll(mask))));
  }
  s.lm_scale = s.tables->landmarks.FilterScale(filter);
  return s;
}

// (a) Entrances per cluster, pairs and arcs per entrance.
void DescribeGraph(const std::string& name, const Study& s, double map_bytes) {
  const ClusterGraph& g = s.graph();
  std::vector<uint32_t> sizes, degrees;
  uint64_t stored = 0, finite = 0;
  for (uint32_t c = 0; c < g.cluster_count(); ++c) {
    const uint64_t k = g.EntrancesOf(c).size();
    sizes.push_back(uint32_t(k));
    stored += k * (k - (k == 0 ? 0 : 1)) / 2;
  }
  for (const auto& a : s.adj) {
    degrees.push_back(uint32_t(a.size()));
    finite += a.size();
  }
  std::sort(sizes.begin(), sizes.end());
  std::sort(degrees.begin(), degrees.end());
  const auto q = [](const std::vector<uint32_t>& v, double p) {
    return v[std::min(v.size() - 1, size_t(p * double(v.size())))];
  };
  std::printf(
      "%s: map %.1f MB, graph %.2f MB (%.1f %%), built in %.0f ms; %u clusters, %u entrances; "
      "entrances per cluster min/median/p90/max %u/%u/%u/%u; stored pairs %llu, connected "
      "%llu; degree (arcs per entrance) median/p90/max %u/%u/%u, mean %.1f\n",
      name.c_str(), map_bytes / 1e6, double(g.bytes()) / 1e6, 100.0 * double(g.bytes()) / map_bytes,
      s.graph_ms, g.cluster_count(), g.entrance_count(), sizes.front(), q(sizes, 0.5),
      q(sizes, 0.9), sizes.back(), (unsigned long long)stored, (unsigned long long)(finite / 2),
      q(degrees, 0.5), q(degrees, 0.9), degrees.back(), double(finite) / double(s.adj.size()));
}

// (c) One second level's size, bytes and build.
void DescribeLevel(const Level2& l, double map_bytes) {
  uint64_t borders = 0, widest = 0, supers = 0;
  for (const auto& b : l.border) {
    borders += b.size();
    widest = std::max<uint64_t>(widest, b.size());
    supers += b.empty() ? 0 : 1;
  }
  const double bytes = double(l.pairs) * 2 + double(borders) * 4 + double(supers) * 8;
  std::printf(
      "- level 2, %ux%u clusters: %llu super-clusters, %llu border entrances (%llu slots, "
      "widest %llu), %llu pairs; about %.2f MB (16-bit costs, 4 B per border slot) = %.1f %% "
      "of the map on top of the graph; built in %.0f ms (%llu arcs relaxed)\n",
      l.k, l.k, (unsigned long long)supers, (unsigned long long)(borders / 2),
      (unsigned long long)borders, (unsigned long long)widest, (unsigned long long)l.pairs,
      bytes / 1e6, 100.0 * bytes / map_bytes, l.build_ms, (unsigned long long)l.relaxed);
}

// A random pair over kLongPath apart in clusters that are neither the same nor neighbours,
// joined to their clusters' entrances as the query joins them (straight-line estimates to
// the entrances of their part); nullopt when this draw gave none.
std::optional<Query> DrawQuery(const Study& s, waymesh::NavQuery& placer, std::mt19937& rng) {
  const ClusterGraph& g = s.graph();
  const waymesh::QueryFilter filter(s.map->info());
  const auto a = placer.RandomPoint(filter, rng);
  const auto b = placer.RandomPoint(filter, rng);
  if (!a.ok() || !*a || !b.ok() || !*b) return std::nullopt;
  if (waymesh::DistanceXZ((*a)->pos, (*b)->pos) <= kLongPath) return std::nullopt;
  Query q{**a, **b, g.ClusterOf((*a)->poly.tile()), g.ClusterOf((*b)->poly.tile()), {}, {}};
  if (q.from == q.to || g.Neighbours(q.from, q.to)) return std::nullopt;
  const auto ends = [&](const waymesh::SurfacePoint& p, uint32_t c, std::vector<float>* out) {
    const uint32_t part = g.PartOf(s.Global(p.poly.index()));
    for (const uint32_t id : g.EntrancesOf(c)) {
      const auto& e = g.entrance(id);
      out->push_back(g.PartOf(s.Global(e.poly[g.SideIn(e, c)])) == part
                         ? waymesh::Distance(p.pos, e.anchor) * s.scale
                         : INFINITY);
    }
  };
  ends(q.a, q.from, &q.start);
  ends(q.b, q.to, &q.goal);
  return q;
}

// What the pairs measured, summed.
struct PairTotals {
  Totals today;  // the exact abstract A* with today's bound
  std::array<Totals, kBins> bins{};
  std::vector<Totals> by_slack = std::vector<Totals>(kSlacks.size());
  std::vector<Level2Totals> levels;
  double bound_gap = 0;  // cost found with today's bound / optimum
};

// Today's bound for every entrance towards the goal of `q` (straight line, landmarks).
void TodaysBound(const Study& s, const Query& q, std::vector<float>* h) {
  const ClusterGraph& g = s.graph();
  const uint32_t goal_poly = s.Global(q.b.poly.index());
  for (uint32_t e = 0; e < g.entrance_count(); ++e) {
    const auto& en = g.entrance(e);
    (*h)[e] =
        std::max(waymesh::Distance(en.anchor, q.b.pos) * s.scale,
                 s.tables->landmarks.LowerBound(s.Global(en.poly[0]), goal_poly) * s.lm_scale);
  }
}

// Runs every search on one pair; false when the graph has no route for it.
bool MeasurePair(const Study& s, const std::vector<Level2>& levels, const Query& q, Dijkstra& dj,
                 std::vector<float>& h, std::vector<float>& scratch, PairTotals* t) {
  const ClusterGraph& g = s.graph();
  TodaysBound(s, q, &h);
  Totals one;
  Stopwatch t1;
  const float best = AbstractAStar(g, s.adj, q, h, &one);
  one.us = t1.ElapsedUs();
  if (!std::isfinite(best)) return false;
  Totals& bin = t->bins[std::min<size_t>(size_t(one.legs / kLegsPerBin), kBins - 1)];
  bin.n += 1;
  bin.settled += one.settled;
  bin.legs += one.legs;
  t->today.n += 1;
  t->today.settled += one.settled;
  t->today.relaxed += one.relaxed;
  t->today.legs += one.legs;
  t->today.us += one.us;
  // The bound's slack: the same exact search with the true graph distance to the goal shrunk
  // by a few per cent as its bound (settled entrances by slack).
  dj.Begin();
  const auto last = g.EntrancesOf(q.to);
  for (uint32_t i = 0; i < last.size(); ++i) {
    if (std::isfinite(q.goal[i])) dj.Relax(last[i], q.goal[i]);
  }
  uint64_t unused = 0;
  dj.Run(
      s.adj, INFINITY, [](uint32_t) { return true; }, &unused);
  for (size_t i = 0; i < kSlacks.size(); ++i) {
    for (uint32_t e = 0; e < g.entrance_count(); ++e) scratch[e] = dj.Dist(e) * (1 - kSlacks[i]);
    AbstractAStar(g, s.adj, q, scratch, &t->by_slack[i]);
  }
  const float straight = waymesh::Distance(q.a.pos, q.b.pos) * s.scale;
  const float h_start = std::max(
      straight,
      s.tables->landmarks.LowerBound(s.Global(q.a.poly.index()), s.Global(q.b.poly.index())) *
          s.lm_scale);
  t->today.h_start += h_start / best;
  t->today.straight += straight / best;
  // Without a bound: the optimum, and the second levels' check (an exact overlay finds it).
  std::fill(scratch.begin(), scratch.end(), 0.0f);
  Totals dijkstra;
  const float optimum = AbstractAStar(g, s.adj, q, scratch, &dijkstra);
  t->today.dijkstra_settled += dijkstra.settled;
  t->bound_gap += best / optimum;
  for (size_t i = 0; i < levels.size(); ++i) {
    Level2Totals unused_totals;
    const float overlay = Level2AStar(g, s.adj, levels[i], q, scratch, dj, &unused_totals);
    Level2Totals& l = t->levels[i];
    l.inexact += std::abs(overlay - optimum) > 1e-4f * optimum ? 1 : 0;
    Stopwatch t2;
    const float best2 = Level2AStar(g, s.adj, levels[i], q, h, dj, &l);
    l.us += t2.ElapsedUs();
    l.n += 1;
    l.mismatches += std::abs(best2 - best) > 1e-3f * best ? 1 : 0;
  }
  return true;
}

void ReportPairs(const PairTotals& t, const std::vector<Level2>& levels) {
  const Totals& today = t.today;
  const double n = std::max(today.n, 1.0);
  std::printf(
      "- %0.f long pairs: abstract A* (exact, today's bound) settles %.0f entrances, relaxes "
      "%.0f arcs, route %.1f legs (%.1f settled per leg), %.0f µs; bound at the start / optimum "
      "%.4f (landmarks), straight line x cheapest cost / optimum %.4f; cost found / optimum "
      "%.5f\n",
      today.n, today.settled / n, today.relaxed / n, today.legs / n, today.settled / today.legs,
      today.us / n, today.h_start / n, today.straight / n, t.bound_gap / n);
  for (size_t i = 0; i < kBins; ++i) {
    const Totals& bin = t.bins[i];
    if (bin.n == 0) continue;
    const std::string upto =
        i + 1 < kBins ? "-" + std::to_string(int(kLegsPerBin * double(i + 1)) - 1) : " or more";
    std::printf("  - routes of %.0f%s legs: %.0f pairs, %.1f legs, %.0f settled (%.1f per leg)\n",
                kLegsPerBin * double(i), upto.c_str(), bin.n, bin.legs / bin.n, bin.settled / bin.n,
                bin.settled / bin.legs);
  }
  std::printf(
      "  - same search without a bound (Dijkstra) settles %.0f; with the exact graph distance "
      "to the goal as bound, shrunk by",
      today.dijkstra_settled / n);
  for (size_t i = 0; i < kSlacks.size(); ++i) {
    std::printf(" %.0f %%: %.0f settled (%.0f arcs)%s", 100.0 * kSlacks[i],
                t.by_slack[i].settled / n, t.by_slack[i].relaxed / n,
                i + 1 < kSlacks.size() ? "," : "\n");
  }
  for (size_t i = 0; i < levels.size(); ++i) {
    const Level2Totals& l = t.levels[i];
    const double m = std::max(l.n, 1.0);
    std::printf(
        "  - level 2 %ux%u: connections settle %.0f, level-2 A* settles %.0f border entrances "
        "and relaxes %.0f level-2 edges, route %.1f level-2 edges whose unpacking settles %.0f; "
        "total settled %.0f against %.0f; %.0f µs; cost differs from the level-1 search with "
        "the same bound in %.0f pairs; without a bound, the overlay's optimum differs from "
        "Dijkstra's in %.0f pairs (exact overlay: 0)\n",
        levels[i].k, levels[i].k, l.connect_settled / m, l.settled / m, l.relaxed / m, l.edges / m,
        l.unpack_settled / m, (l.connect_settled + l.settled + l.unpack_settled) / m,
        today.settled / n, l.us / m, l.mismatches, l.inexact);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = ParseArgs(argc, argv);
  const std::string name = args.map.substr(0, args.map.find('='));
  const std::string path = args.map.substr(args.map.find('=') + 1);
  const Study s = Load(path);
  const double map_bytes = double(std::filesystem::file_size(path));
  DescribeGraph(name, s, map_bytes);
  // (b) what a CH must keep, and its shortcuts and searches by nested dissection.
  DominatedPairs(s.adj);
  EstimateContraction(*s.map, s.graph());
  // (c) second levels.
  std::vector<Level2> levels;
  for (const uint32_t k : args.supers) {
    levels.push_back(BuildLevel2(*s.map, s.graph(), s.adj, k));
    DescribeLevel(levels.back(), map_bytes);
  }
  // The searches on random long pairs.
  waymesh::NavQuery placer(s.map, {.hierarchy = false});
  std::mt19937 rng(uint32_t(args.seed));
  PairTotals totals;
  totals.levels.resize(levels.size());
  Dijkstra dj(s.graph().entrance_count());
  std::vector<float> h(s.graph().entrance_count()), scratch(s.graph().entrance_count());
  int drawn = 0;
  for (int draw = 0; draw < args.pairs * kDrawsPerPair && drawn < args.pairs; ++draw) {
    const std::optional<Query> q = DrawQuery(s, placer, rng);
    if (q && MeasurePair(s, levels, *q, dj, h, scratch, &totals)) ++drawn;
  }
  ReportPairs(totals, levels);
  return 0;
}
