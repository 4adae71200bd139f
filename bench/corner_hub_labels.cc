// Exact paths from hub labels over the turn-corner visibility graph (issue 32), side by side
// with the exact search. Builds the corner index, the corner graph and the labels on one map,
// prints their sizes and build times, then answers random pairs both ways, alternating which
// goes first: NavQuery::FindPath in exact mode, and the label query (the corners s sees, the
// straight line when t is among what s sees, else the corners t sees and the best meeting of
// the two sets over the labels, unpacked to corners). Lengths are plan-view lengths of the
// waypoints of each; they must agree to 1e-6 relative.
// Run:
//   build/bench/corner_hub_labels --map demo --demo-size 1022 --seed 7 --pairs 1000
//   build/bench/corner_hub_labels --map ../shared/data/polyanya/meshes/aurora-merged.mesh

#include <algorithm>
#include <cmath>
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
#include "exact/hub_labels.h"
#include "exact/sight_flood.h"
#include "exact/turn_corner_index.h"
#include "query_context.h"
#include "vs_detour/stats.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"

namespace {

using waymesh::SurfacePoint;
using waymesh::Vec3;
using waymesh::bench::Spread;
using waymesh::bench::SpreadOf;
using waymesh::bench::Stopwatch;
using waymesh::internal::QueryContext;
using waymesh::internal::exact::CornerGraph;
using waymesh::internal::exact::HubLabels;
using waymesh::internal::exact::SeenCorner;
using waymesh::internal::exact::TurnCornerIndex;

// Lengths of the two answers may differ by this much, relative, before a pair counts as
// different: the labels' float distances only pick the route; both lengths are summed in
// double from waypoints.
constexpr double kSameLength = 1e-6;
// Mismatching pairs printed in full, for digging in.
constexpr int kMismatchesShown = 5;

struct Args : waymesh::bench::CornerBenchMap {
  uint32_t pairs = 1000;
  double max_label_mb = 2048;
  std::string order = "tree-cover";
};

Args ParseArgs(int argc, char** argv) {
  Args a;
  CLI::App app{"Hub labels over the turn-corner graph against the exact search"};
  waymesh::bench::AddCornerBenchMapFlags(app, &a);
  app.add_option("--pairs", a.pairs, "random pairs on one island")
      ->capture_default_str()
      ->check(CLI::Range(1u, 1000000u));
  app.add_option("--max-label-mb", a.max_label_mb, "budget of the labels (MB)")
      ->capture_default_str();
  app.add_option("--order", a.order, "order in which corners become hubs")
      ->capture_default_str()
      ->check(CLI::IsMember({"degree", "tree-cover"}));
  waymesh::bench::ParseFlagsOrExit(app, argc, argv);
  waymesh::bench::FinishCornerBenchFlags(&a);
  return a;
}

double PlanDistance(Vec3 a, Vec3 b) { return std::hypot(double(b.x) - a.x, double(b.z) - a.z); }

// The sizes and build times of the three stages over one map.
struct Built {
  TurnCornerIndex index;
  CornerGraph graph;
  HubLabels labels;
};

// Prints each stage's sizes and build time as it ends (the graph of a large town takes
// minutes).
absl::StatusOr<Built> BuildAll(QueryContext& ctx, const waymesh::QueryFilter& filter,
                               const Args& args, uint32_t polygons) {
  Stopwatch w;
  TurnCornerIndex index = TurnCornerIndex::Build(ctx, filter);
  std::printf("%u polygons, %u turn corners (index %.3f s)\n", polygons, index.size(),
              w.ElapsedSeconds());
  w.Restart();
  CornerGraph graph = CornerGraph::Build(ctx, filter, index);
  std::printf("%zu graph edges, mean degree %.1f (graph %.3f s)\n", graph.edges().size(),
              2.0 * double(graph.edges().size()) / std::max(1u, index.size()), w.ElapsedSeconds());
  w.Restart();
  std::vector<HubLabels::WeightedEdge> edges;
  edges.reserve(graph.edges().size());
  for (const auto& e : graph.edges()) edges.push_back({e.a, e.b, e.length});
  auto labels =
      HubLabels::Build(index.size(), edges, size_t(args.max_label_mb * 1e6),
                       args.order == "degree" ? HubLabels::VertexOrder::kDegree
                                              : HubLabels::VertexOrder::kSampledTreeCover);
  if (!labels.ok()) return labels.status();
  std::printf(
      "labels (%s order): %zu entries, per corner mean %.1f max %u; %.2f MB, %.0f B per "
      "polygon (labels %.3f s)\n",
      args.order.c_str(), labels->label_entries(), labels->mean_label_size(),
      labels->max_label_size(), double(labels->bytes()) / 1e6,
      double(labels->bytes()) / std::max(1u, polygons), w.ElapsedSeconds());
  return Built{std::move(index), std::move(graph), *std::move(labels)};
}

// The label query with its reused buffers.
class LabelQuery {
 public:
  LabelQuery(QueryContext& ctx, const waymesh::QueryFilter& filter, const Built& built)
      : ctx_(ctx), filter_(filter), built_(built) {}

  // The time of the last query's BestMeeting and unpacking alone, and how many corners its
  // ends saw, for the breakdown.
  double meeting_us() const { return meeting_us_; }
  size_t seeds() const { return sources_.size() + targets_.size(); }

  // The plan length of the shortest path s -> t (+infinity when none); sets *direct when t is
  // in straight sight of s.

  double Length(const SurfacePoint& s, const SurfacePoint& t, bool* direct) {
    using waymesh::internal::exact::VisibleCorners;
    meeting_us_ = 0;
    targets_.clear();
    *direct = VisibleCorners(ctx_, s, filter_, built_.index, &t, &seen_);
    ToSeeds(seen_, &sources_);
    if (*direct) return PlanDistance(s.pos, t.pos);
    VisibleCorners(ctx_, t, filter_, built_.index, nullptr, &seen_);
    ToSeeds(seen_, &targets_);
    const Stopwatch meeting_time;
    const double length = MeetingLength(s.pos, t.pos);
    meeting_us_ = meeting_time.ElapsedUs();
    return length;
  }

 private:
  double MeetingLength(Vec3 s, Vec3 t) {
    const auto meeting = built_.labels.BestMeeting(sources_, targets_, &scratch_);
    if (!meeting) return INFINITY;
    built_.labels.PathVia(sources_[meeting->source].vertex, meeting->hub,
                          targets_[meeting->target].vertex, &corners_);
    return WaypointLength(s, t);
  }

  static void ToSeeds(const std::vector<SeenCorner>& seen, std::vector<HubLabels::Seed>* out) {
    out->clear();
    for (const SeenCorner& c : seen) out->push_back({c.corner, c.distance});
  }

  // s, the unpacked corners, t: the path's length from its waypoints, in double.
  double WaypointLength(Vec3 s, Vec3 t) const {
    double length = 0;
    Vec3 at = s;
    for (uint32_t corner : corners_) {
      const Vec3 next = built_.index.position(corner);
      length += PlanDistance(at, next);
      at = next;
    }
    return length + PlanDistance(at, t);
  }

  QueryContext& ctx_;
  const waymesh::QueryFilter& filter_;
  const Built& built_;
  HubLabels::Scratch scratch_;
  std::vector<SeenCorner> seen_;
  std::vector<HubLabels::Seed> sources_, targets_;
  std::vector<uint32_t> corners_;
  double meeting_us_ = 0;
};

double ExactPlanLength(const waymesh::PathResult& r) {
  double length = 0;
  for (size_t k = 1; k < r.waypoints.size(); ++k) {
    length += PlanDistance(r.waypoints[k - 1].pos, r.waypoints[k].pos);
  }
  return length;
}

struct PairOutcome {
  double exact_us = 0, labels_us = 0, meeting_us = 0;
  double seeds = 0;  // corners seen from both ends
  double exact_length = 0, labels_length = 0;
  bool complete = false, direct = false;
};

void PrintTimes(const std::vector<PairOutcome>& outcomes) {
  std::vector<double> exact, labels, meeting, seeds;
  for (const PairOutcome& o : outcomes) {
    exact.push_back(o.exact_us);
    labels.push_back(o.labels_us);
    meeting.push_back(o.meeting_us);
    seeds.push_back(o.seeds);
  }
  const Spread e = SpreadOf(exact), l = SpreadOf(labels), m = SpreadOf(meeting);
  const Spread n = SpreadOf(seeds);
  std::printf("                        median      p90      p99  (us per query)\n");
  std::printf("exact FindPath        %8.1f %8.1f %8.1f\n", e.median, e.p90, e.p99);
  std::printf("label query           %8.1f %8.1f %8.1f\n", l.median, l.p90, l.p99);
  std::printf("  of which meeting    %8.1f %8.1f %8.1f  (BestMeeting + unpacking)\n", m.median,
              m.p90, m.p99);
  std::printf("  corners seen, s+t   %8.0f %8.0f %8.0f\n", n.median, n.p90, n.p99);
  std::printf("exact / labels        %8.1f %8.1f %8.1f\n", e.median / l.median, e.p90 / l.p90,
              e.p99 / l.p99);
}

// Counts (and shows the first few) pairs whose two lengths differ by more than kSameLength.
void PrintAgreement(const std::vector<PairOutcome>& outcomes,
                    const std::vector<std::pair<SurfacePoint, SurfacePoint>>& pairs) {
  int complete = 0, direct = 0, different = 0, labelled = 0;
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const PairOutcome& o = outcomes[i];
    complete += o.complete;
    direct += o.direct;
    labelled += std::isfinite(o.labels_length);
    if (!o.complete) continue;
    const double gap = std::abs(o.labels_length - o.exact_length);
    if (std::isfinite(o.labels_length) && gap <= kSameLength * std::max(1.0, o.exact_length)) {
      continue;
    }
    if (++different <= kMismatchesShown) {
      const Vec3 s = pairs[i].first.pos, t = pairs[i].second.pos;
      std::printf(
          "  differs: pair %zu (%.3f, %.3f, %.3f) -> (%.3f, %.3f, %.3f): exact %.6f, "
          "labels %.6f%s\n",
          i, s.x, s.y, s.z, t.x, t.y, t.z, o.exact_length, o.labels_length,
          o.direct ? " (straight sight)" : "");
    }
  }
  std::printf(
      "%zu pairs, %d complete by FindPath, %d answered by the labels, %d in straight sight; "
      "lengths differing by more than %g relative (pairs complete by FindPath): %d\n",
      outcomes.size(), complete, labelled, direct, kSameLength, different);
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = ParseArgs(argc, argv);
  std::setvbuf(stdout, nullptr, _IOLBF, 0);  // each stage's line as it ends, also into a file
#ifndef NDEBUG
  std::fprintf(stderr, "corner_hub_labels: warning: assertions are on; time a Release build\n");
#endif
  const std::shared_ptr<const waymesh::NavMap> map = waymesh::bench::LoadCornerBenchMap(args);
  uint32_t polygons = 0, links = 0;
  for (const waymesh::TileView& t : map->tiles()) {
    polygons += t.poly_count();
    links += uint32_t(t.off_mesh_links.size());
  }
  std::printf("%s: %u tiles, %u off-mesh links\n", args.map.c_str(), map->tile_count(), links);
  QueryContext ctx(map, polygons, /*use_landmarks=*/false, /*use_dead_ends=*/false,
                   /*use_hierarchy=*/false);
  const waymesh::QueryFilter filter = waymesh::ExactReadyFilter(*map);
  const auto built = BuildAll(ctx, filter, args, polygons);
  if (!built.ok()) {
    std::fprintf(stderr, "%s: %s\n", args.map.c_str(), built.status().ToString().c_str());
    return 1;
  }

  waymesh::NavQuery q(map);
  const auto pairs = waymesh::bench::CornerBenchPairs(q, filter, args.pairs, args.seed);
  LabelQuery label_query(ctx, filter, *built);
  waymesh::PathOptions exact_options;
  exact_options.mode = waymesh::PathMode::kExact;
  waymesh::PathResult r;
  std::vector<PairOutcome> outcomes(pairs.size());
  const auto run_exact = [&](size_t i) {
    Stopwatch w;
    const bool ok = q.FindPath(pairs[i].first, pairs[i].second, filter, exact_options, &r).ok();
    outcomes[i].exact_us = w.ElapsedUs();
    outcomes[i].complete = ok && r.status == waymesh::QueryStatus::kComplete;
    outcomes[i].exact_length = ExactPlanLength(r);
  };
  const auto run_labels = [&](size_t i) {
    Stopwatch w;
    outcomes[i].labels_length =
        label_query.Length(pairs[i].first, pairs[i].second, &outcomes[i].direct);
    outcomes[i].labels_us = w.ElapsedUs();
    outcomes[i].meeting_us = label_query.meeting_us();
    outcomes[i].seeds = double(label_query.seeds());
  };
  if (!pairs.empty()) {  // warm-up: the first query of each grows its buffers
    run_exact(0);
    run_labels(0);
  }
  for (size_t i = 0; i < pairs.size(); ++i) {
    if (i % 2 == 0) run_exact(i);
    run_labels(i);
    if (i % 2 == 1) run_exact(i);
  }
  std::printf("exact search: %s\n", args.exact_landmarks ? "map tables + exact landmark table"
                                                         : "map tables, no exact landmark table");
  PrintTimes(outcomes);
  PrintAgreement(outcomes, pairs);
  return 0;
}
