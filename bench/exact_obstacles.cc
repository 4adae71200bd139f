// Exact mode on carved maps (issue 32): the same random FindPath queries in exact and in
// approximate mode on maps with block obstacles carved in (the demo town and Polyanya's arena),
// timed side by side query by query in one run, with their plan-view lengths. Run:
//   build/rel/bench/exact_obstacles [--size 256] [--seed 7] [--obstacles 300]
//       [--arena-obstacles 40] [--queries 1000] [--max-nodes 0] [--exact-twin]
// `--help` lists the flags. Prints, per map, the median and p99 time of each mode, their ratio,
// the complete paths of each and the exact / approximate length ratio (mean, best, worst).
// With --exact-twin it also runs exact mode on the carved town as the server serves it (with
// the uncut town's search tables) with and without the town's plan twin, side by side.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "common/flags.h"
#include "common/stopwatch.h"
#include "obstacle_world/obstacle_world.h"
#include "vs_detour/bench_map.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/obstacles/carve_map.h"
#include "waymesh/core/search_tables.h"

namespace {

using waymesh::bench::Stopwatch;

// Ceilings that keep a mistyped count from running for days; far above any documented run.
constexpr int kMaxObstacles = 100000;
constexpr int kMaxQueries = 10000000;

struct Args {
  waymesh::bench::TownFlags town;
  int obstacles = 300;
  int arena_obstacles = 40;
  int queries = 1000;
  uint32_t max_nodes = 0;  // exact mode's node limit; 0: kExactDefaultMaxNodes
  bool exact_twin = false;
  std::string arena = WAYMESH_SHARED_DATA "/polyanya/meshes/arena-merged.mesh";
};

// Parses the flags; --help lists them, a bad one exits 2 with CLI11's message naming it.
Args ParseArgs(int argc, char** argv) {
  Args a;
  a.town.size = 256;
  CLI::App app{"FindPath in exact and approximate mode on carved maps, side by side"};
  waymesh::bench::AddTownFlags(app, &a.town);
  app.add_option("--obstacles", a.obstacles, "block obstacles carved into the town")
      ->capture_default_str()
      ->check(CLI::Range(0, kMaxObstacles));
  app.add_option("--arena-obstacles", a.arena_obstacles, "block obstacles carved into the arena")
      ->capture_default_str()
      ->check(CLI::Range(0, kMaxObstacles));
  app.add_option("--queries", a.queries, "random FindPath queries per map, each in both modes")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxQueries));
  app.add_option("--max-nodes", a.max_nodes, "exact mode's interval node limit (0: the default)")
      ->capture_default_str()
      ->check(CLI::Range(0u, 1u << 26));
  app.add_option("--arena", a.arena, "the arena's Polyanya .mesh")->capture_default_str();
  app.add_flag("--exact-twin", a.exact_twin,
               "also compare exact mode on the carved town with and without the plan twin");
  waymesh::bench::ParseFlagsOrExit(app, argc, argv);
  return a;
}

// One mode's answers on one map.
struct ModeRun {
  std::vector<double> micros;
  int complete = 0;
};

// Length ratios of the pairs both modes completed.
struct LengthRatios {
  double sum = 0, best = INFINITY, worst = 0;
  int count = 0;
  void Add(double ratio) {
    sum += ratio;
    best = std::min(best, ratio);
    worst = std::max(worst, ratio);
    ++count;
  }
};

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(p * double(v.size())))];
}

double PlanLength(const waymesh::PathResult& path) {
  double length = 0;
  for (size_t k = 0; k + 1 < path.waypoints.size(); ++k) {
    const waymesh::Vec3 s = path.waypoints[k].pos, e = path.waypoints[k + 1].pos;
    length += std::hypot(double(e.x) - s.x, double(e.z) - s.z);
  }
  return length;
}

// Carves `count` random block obstacles into `base`; exits on failure.
std::shared_ptr<const waymesh::NavMap> Carve(const std::shared_ptr<const waymesh::NavMap>& base,
                                             int count, std::mt19937& rng) {
  waymesh::NavQuery placer(base);
  std::vector<waymesh::Obstacle> obstacles;
  for (int i = 0; i < count; ++i)
    obstacles.push_back(waymesh::bench::RandomObstacle(placer, rng, i));
  auto carved = waymesh::CarveMap(base, obstacles);
  if (!carved.ok()) {
    std::fprintf(stderr, "carve: %s\n", std::string(carved.status().message()).c_str());
    std::exit(1);
  }
  return *carved;
}

// Runs args.queries random pairs of `map` in both modes (order alternating) and prints a line.
void CompareModes(const char* name, const std::shared_ptr<const waymesh::NavMap>& map,
                  const Args& args, std::mt19937& rng) {
  // What exact mode takes: one cost per metre (links included), the same for both modes.
  const waymesh::QueryFilter filter = waymesh::ExactReadyFilter(*map);
  waymesh::NavQuery q(map);
  waymesh::PathOptions exact_options;
  exact_options.mode = waymesh::PathMode::kExact;
  exact_options.max_nodes = args.max_nodes;
  const waymesh::PathOptions approximate_options;
  ModeRun exact, approximate;
  LengthRatios ratios;
  int longer = 0;
  waymesh::PathResult paths[2];
  for (int i = 0; i < args.queries; ++i) {
    const auto a = q.RandomPoint(filter, rng), b = q.RandomPoint(filter, rng);
    if (!a.ok() || !b.ok() || !*a || !*b) continue;
    for (int k = 0; k < 2; ++k) {
      const bool is_exact = (i + k) % 2 == 0;
      ModeRun& run = is_exact ? exact : approximate;
      waymesh::PathResult& path = paths[is_exact ? 0 : 1];
      const Stopwatch watch;
      const absl::Status s =
          q.FindPath(**a, **b, filter, is_exact ? exact_options : approximate_options, &path);
      run.micros.push_back(watch.ElapsedUs());
      if (!s.ok()) {
        std::fprintf(stderr, "%s: FindPath: %s\n", name, std::string(s.message()).c_str());
        std::exit(1);
      }
      run.complete += path.status == waymesh::QueryStatus::kComplete;
    }
    if (paths[0].status == waymesh::QueryStatus::kComplete &&
        paths[1].status == waymesh::QueryStatus::kComplete) {
      const double e = PlanLength(paths[0]), p = PlanLength(paths[1]);
      if (p > 0) ratios.Add(e / p);
      longer += e > p * (1 + 1e-6) + 1e-4;
    }
  }
  if (exact.micros.empty()) {
    std::fprintf(stderr, "%s: no random points\n", name);
    std::exit(1);
  }
  const double exact_median = Percentile(exact.micros, 0.5);
  const double approximate_median = Percentile(approximate.micros, 0.5);
  std::printf(
      "| %s | %.1f / %.1f | %.1f / %.1f | %.2f | %d / %d of %zu | %.5f / %.5f / %.5f | %d |\n",
      name, exact_median, Percentile(exact.micros, 0.99), approximate_median,
      Percentile(approximate.micros, 0.99), exact_median / approximate_median, exact.complete,
      approximate.complete, exact.micros.size(), ratios.count > 0 ? ratios.sum / ratios.count : 0,
      ratios.count > 0 ? ratios.best : 0, ratios.worst, longer);
}

// Exact mode on the same carved map with the tables of the map it was cut from, with and
// without that map's plan twin (`with_twin`, `plain`), query by query in alternating order.
void CompareTwin(const std::shared_ptr<const waymesh::NavMap>& with_twin,
                 const std::shared_ptr<const waymesh::NavMap>& plain, const Args& args,
                 std::mt19937& rng) {
  const waymesh::QueryFilter filter = waymesh::ExactReadyFilter(*plain);
  waymesh::NavQuery queries[2] = {waymesh::NavQuery(with_twin), waymesh::NavQuery(plain)};
  waymesh::PathOptions options;
  options.mode = waymesh::PathMode::kExact;
  options.max_nodes = args.max_nodes;
  ModeRun runs[2];
  uint64_t nodes[2] = {0, 0};
  int same = 0, both = 0;
  waymesh::PathResult paths[2];
  for (int i = 0; i < args.queries; ++i) {
    const auto a = queries[1].RandomPoint(filter, rng), b = queries[1].RandomPoint(filter, rng);
    if (!a.ok() || !b.ok() || !*a || !*b) continue;
    for (int k = 0; k < 2; ++k) {
      const int which = (i + k) % 2;
      const Stopwatch watch;
      if (!queries[which].FindPath(**a, **b, filter, options, &paths[which]).ok()) std::exit(1);
      runs[which].micros.push_back(watch.ElapsedUs());
      runs[which].complete += paths[which].status == waymesh::QueryStatus::kComplete;
      nodes[which] += paths[which].nodes_expanded;
    }
    if (paths[0].status == waymesh::QueryStatus::kComplete &&
        paths[1].status == waymesh::QueryStatus::kComplete) {
      ++both;
      same += std::abs(paths[0].length - paths[1].length) <= 1e-6 * std::max(1.0, paths[1].length);
    }
  }
  if (runs[0].micros.empty()) std::exit(1);
  const double twin_median = Percentile(runs[0].micros, 0.5);
  const double plain_median = Percentile(runs[1].micros, 0.5);
  std::printf(
      "\nExact mode on the carved town with the uncut town's tables, with / without its plan "
      "twin: median %.1f / %.1f µs (%.2fx), p99 %.1f / %.1f µs (%.2fx), nodes %.0f / %.0f mean; "
      "complete %d / %d of %zu; the same length on %d of the %d both complete\n",
      twin_median, plain_median, twin_median / plain_median, Percentile(runs[0].micros, 0.99),
      Percentile(runs[1].micros, 0.99),
      Percentile(runs[0].micros, 0.99) / Percentile(runs[1].micros, 0.99),
      double(nodes[0]) / double(runs[0].micros.size()),
      double(nodes[1]) / double(runs[1].micros.size()), runs[0].complete, runs[1].complete,
      runs[0].micros.size(), same, both);
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = ParseArgs(argc, argv);
  std::mt19937 rng(32);
  const auto town = waymesh::bench::BuildObstacleTown(args.town.size, args.town.seed);
  const auto arena = waymesh::bench::LoadBenchMap("arena", args.arena, waymesh::RepairOptions{});
  if (!arena.ok()) {
    std::fprintf(stderr, "arena %s: %s\n", args.arena.c_str(),
                 std::string(arena.status().message()).c_str());
    return 1;
  }
  Stopwatch watch;
  const auto carved_town = Carve(town, args.obstacles, rng);
  const double town_ms = watch.ElapsedMs();
  watch.Restart();
  const auto carved_arena = Carve(arena->map, args.arena_obstacles, rng);
  const double arena_ms = watch.ElapsedMs();
  std::printf(
      "town %.0f m: %d obstacles carved in %.0f ms, %llu polygons; arena: %d in %.0f ms, "
      "%llu polygons\n\n",
      args.town.size, args.obstacles, town_ms,
      static_cast<unsigned long long>(carved_town->info().polygon_count), args.arena_obstacles,
      arena_ms, static_cast<unsigned long long>(carved_arena->info().polygon_count));
  std::printf(
      "| map | exact µs median / p99 | approximate µs median / p99 | exact / approximate median "
      "| complete exact / approximate | plan length exact / approximate: mean / best / worst | "
      "exact longer |\n|---|---|---|---|---|---|---|\n");
  CompareModes("town, carved", carved_town, args, rng);
  CompareModes("town, uncut", town, args, rng);
  CompareModes("arena, carved", carved_arena, args, rng);
  CompareModes("arena, uncut", arena->map, args, rng);
  if (args.exact_twin) {
    // As the server serves a carved version: the carved tiles, the uncut map's tables.
    const auto tables = [&](bool twin) {
      return std::make_shared<const waymesh::NavMap>(
          *carved_town,
          waymesh::WithSearchTables(town, {.exact_twin = twin})->shared_search_tables());
    };
    CompareTwin(tables(true), tables(false), args, rng);
  }
  return 0;
}
