// The geometric half of hub labels for exact paths (issue 32): a map's turn corners, their
// visibility graph (core/src/exact/corner_graph.h), and what the online part costs per query
// end, the corners a point sees (VisibleCorners), beside the exact search's time on the same
// random pairs. For a map: polygons, corners, graph edges (mean/max per corner, both edge
// rules), build times and edge-list bytes; for the pairs: |V(s)| and VisibleCorners µs per
// point (mean/median/p90) against exact FindPath µs per query.
// Run:
//   build/bench/corner_graph_stats --map demo --demo-size 1022 --seed 7 [--pairs 500]
//   build/bench/corner_graph_stats --map ../shared/data/polyanya/meshes/aurora-merged.mesh
// VisibleCorners is timed through core's internal call (the one the query side will make);
// FindPath through NavQuery, with the map's stored tables (--exact-landmarks builds the
// exact landmark table first, as a served map has it).

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "common/corner_bench_map.h"
#include "common/corner_bench_pairs.h"
#include "common/flags.h"
#include "common/stopwatch.h"
#include "exact/corner_graph.h"
#include "exact/sight_flood.h"
#include "exact/turn_corner_index.h"
#include "query_context.h"
#include "vs_detour/stats.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"

namespace {

using waymesh::bench::Spread;
using waymesh::bench::SpreadOf;
using waymesh::bench::Stopwatch;
using waymesh::internal::QueryContext;
using waymesh::internal::exact::CornerEdgeRule;
using waymesh::internal::exact::CornerGraph;
using waymesh::internal::exact::SeenCorner;
using waymesh::internal::exact::TurnCornerIndex;

struct Args : waymesh::bench::CornerBenchMap {
  int pairs = 500;
  bool both_rules = false;
  uint32_t sample_corners = 0;  // 0: build the whole graph
};

Args ParseArgs(int argc, char** argv) {
  Args a;
  CLI::App app{"Turn corners, their visibility graph and the corners points see"};
  waymesh::bench::AddCornerBenchMapFlags(app, &a);
  app.add_option("--pairs", a.pairs, "random pairs on one island")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  app.add_flag("--both-rules", a.both_rules,
               "also build the graph of edges taut at both ends (a second build)");
  app.add_option("--sample-corners", a.sample_corners,
                 "instead of building the graph, time VisibleCorners from this many corners "
                 "spread over the index and extrapolate (0: build it)")
      ->capture_default_str();
  waymesh::bench::ParseFlagsOrExit(app, argc, argv);
  waymesh::bench::FinishCornerBenchFlags(&a);
  return a;
}

void PrintGraph(const char* rule, const CornerGraph& graph, double seconds) {
  size_t most = 0;
  for (uint32_t c = 0; c < graph.corner_count(); ++c) {
    most = std::max(most, graph.Neighbours(c).size());
  }
  std::printf(
      "graph (%s): %zu edges, per corner mean %.1f max %zu; built in %.2f s; edge list %.2f MB "
      "(%zu B per edge)\n",
      rule, graph.edges().size(),
      2.0 * double(graph.edges().size()) / std::max(1u, graph.corner_count()), most, seconds,
      double(graph.edge_bytes()) / 1e6, sizeof(waymesh::internal::exact::CornerEdge));
}

// What building the graph would cost, from `count` corners spread over the index: the
// corners each sees (the graph's edges per corner lie between half that and that, as pairs
// seen from one side or both) and the time VisibleCorners takes from a corner.
void SampleCornerSights(QueryContext& ctx, const waymesh::QueryFilter& filter,
                        const TurnCornerIndex& index, uint32_t count) {
  count = std::min(count, index.size());
  if (count == 0) return;
  std::vector<SeenCorner> seen;
  std::vector<double> sizes, us, entered;
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t id = uint32_t(uint64_t(k) * index.size() / count);
    Stopwatch w;
    waymesh::internal::exact::VisibleCorners(ctx, index.point(id), filter, index, nullptr, &seen);
    us.push_back(w.ElapsedUs());
    sizes.push_back(double(seen.size()));
    entered.push_back(double(ctx.exact.sight.entered));
  }
  const Spread n = SpreadOf(sizes), t = SpreadOf(us), p = SpreadOf(entered);
  std::printf(
      "graph (sampled, %u corners): |V(corner)| mean %.1f median %.1f p90 %.1f; VisibleCorners "
      "from a corner mean %.1f us median %.1f p90 %.1f; whole graph about %.0f s to build, "
      "%.0f to %.0f edges\n",
      count, n.mean, n.median, n.p90, t.mean, t.median, t.p90, t.mean * 1e-6 * double(index.size()),
      n.mean * double(index.size()) / 2, n.mean * double(index.size()));
  // Each (corner, polygon it sees) pair would be one entry of per-polygon lists of the corners
  // that see a polygon (EHL's per-cell idea at polygon grain).
  std::printf(
      "polygons a corner sees: mean %.0f median %.0f p90 %.0f; (corner, polygon) pairs about "
      "%.0f\n",
      p.mean, p.median, p.p90, p.mean * double(index.size()));
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = ParseArgs(argc, argv);
  // Each line as it is printed: the graph of a large map takes minutes to build.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const std::shared_ptr<const waymesh::NavMap> map = waymesh::bench::LoadCornerBenchMap(args);
  uint32_t polygons = 0;
  for (const waymesh::TileView& t : map->tiles()) polygons += t.poly_count();
  QueryContext ctx(map, polygons, /*use_landmarks=*/false, /*use_dead_ends=*/false,
                   /*use_hierarchy=*/false);
  const waymesh::QueryFilter filter = waymesh::ExactReadyFilter(*map);

  Stopwatch w;
  const TurnCornerIndex index = TurnCornerIndex::Build(ctx, filter);
  const double index_seconds = w.ElapsedSeconds();
  std::printf("%s: %u tiles, %u polygons, %u turn corners (index built in %.3f s)\n",
              args.map.c_str(), map->tile_count(), polygons, index.size(), index_seconds);
  if (args.sample_corners > 0) {
    SampleCornerSights(ctx, filter, index, args.sample_corners);
  } else {
    w.Restart();
    const CornerGraph graph = CornerGraph::Build(ctx, filter, index);
    PrintGraph("seen from either end", graph, w.ElapsedSeconds());
  }
  if (args.both_rules && args.sample_corners == 0) {
    w.Restart();
    const CornerGraph taut = CornerGraph::Build(ctx, filter, index, CornerEdgeRule::kTautBothEnds);
    PrintGraph("taut at both ends, not exact", taut, w.ElapsedSeconds());
  }

  waymesh::NavQuery q(map);
  const auto pairs = waymesh::bench::CornerBenchPairs(q, filter, uint32_t(args.pairs), args.seed);
  waymesh::PathOptions po;
  po.mode = waymesh::PathMode::kExact;
  std::vector<SeenCorner> seen;
  std::vector<double> seen_counts, sight_us, search_us, sight_pieces, sight_polygons;
  waymesh::PathResult r;
  int direct = 0, complete = 0;
  // A warm-up pair: the first search of a context grows its buffers.
  if (!pairs.empty()) {
    waymesh::internal::exact::VisibleCorners(ctx, pairs[0].first, filter, index, nullptr, &seen);
    (void)q.FindPath(pairs[0].first, pairs[0].second, filter, po, &r);
  }
  for (const auto& [s, t] : pairs) {
    for (const auto& [from, to] : {std::pair{&s, &t}, std::pair{&t, &s}}) {
      Stopwatch sight;
      const bool in_sight =
          waymesh::internal::exact::VisibleCorners(ctx, *from, filter, index, to, &seen);
      sight_us.push_back(sight.ElapsedUs());
      sight_pieces.push_back(double(ctx.exact.sight.pieces_expanded));
      sight_polygons.push_back(double(ctx.exact.sight.entered));
      seen_counts.push_back(double(seen.size()));
      direct += from == &s && in_sight;
    }
    Stopwatch search;
    const bool ok = q.FindPath(s, t, filter, po, &r).ok();
    search_us.push_back(search.ElapsedUs());
    complete += ok && r.status == waymesh::QueryStatus::kComplete;
  }
  const Spread n = SpreadOf(seen_counts), v = SpreadOf(sight_us), e = SpreadOf(search_us),
               pieces = SpreadOf(sight_pieces), entered = SpreadOf(sight_polygons);
  std::printf("%zu pairs (seed %llu), %d complete, %d in straight sight\n", pairs.size(),
              (unsigned long long)args.seed, complete, direct);
  std::printf("|V(point)|            mean %8.1f  median %8.1f  p90 %8.1f\n", n.mean, n.median,
              n.p90);
  std::printf("VisibleCorners us/pt  mean %8.1f  median %8.1f  p90 %8.1f\n", v.mean, v.median,
              v.p90);
  std::printf("pieces looked through mean %8.0f  median %8.0f  p90 %8.0f\n", pieces.mean,
              pieces.median, pieces.p90);
  // Nodes far above polygons: the one root's cone is cut into many intervals per polygon.
  std::printf("polygons entered      mean %8.0f  median %8.0f  p90 %8.0f\n", entered.mean,
              entered.median, entered.p90);
  std::printf("exact FindPath us/q   mean %8.1f  median %8.1f  p90 %8.1f%s\n", e.mean, e.median,
              e.p90, args.exact_landmarks ? " (exact landmark table)" : "");
  std::printf("2 x VisibleCorners / FindPath: mean %.2f  median %.2f  p90 %.2f\n",
              2 * v.mean / e.mean, 2 * v.median / e.median, 2 * v.p90 / e.p90);
  return 0;
}
