// FindPath with obstacles (issue 29): the same queries on the demo town without obstacles (as
// served: with its search tables) and with N block obstacles carved in (as an obstacle layer
// version is served: searching with the map's tables through the carved polygons' origins),
// beside the carved map without tables and with tables built for it, timed side by side, query
// by query, in one run. Run:
//   build/rel/bench/obstacle_query [--size 1024] [--seed 7] [--obstacles 1000] [--queries 2000]
// `--help` lists the flags. Prints the median FindPath time of each and their ratio (target:
// with obstacles within 1.2x).

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "common/flags.h"
#include "common/stopwatch.h"
#include "obstacle_world/obstacle_world.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/obstacles/carve_map.h"
#include "waymesh/core/search_tables.h"

namespace {

using waymesh::bench::Stopwatch;

// Issue 29's target: FindPath on a layer version at most this many times the time without.
constexpr double kTargetRatio = 1.2;
// Ceilings that keep a mistyped count from running for days; far above any documented run.
constexpr int kMaxObstacles = 100000;
constexpr int kMaxQueries = 10000000;

struct Args {
  waymesh::bench::TownFlags town;
  int obstacles = 1000;
  int queries = 2000;
};

// Parses the flags; --help lists them, a bad one exits 2 with CLI11's message naming it.
Args ParseArgs(int argc, char** argv) {
  Args a;
  CLI::App app{"FindPath on the demo town without and with carved obstacles, side by side"};
  waymesh::bench::AddTownFlags(app, &a.town);
  app.add_option("--obstacles", a.obstacles, "block obstacles carved in")
      ->capture_default_str()
      ->check(CLI::Range(0, kMaxObstacles));
  app.add_option("--queries", a.queries, "random FindPath queries, each on every map")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxQueries));
  waymesh::bench::ParseFlagsOrExit(app, argc, argv);
  return a;
}

// One map under test: its query object and the FindPath times on it.
struct Subject {
  const char* name;
  std::unique_ptr<waymesh::NavQuery> query;
  std::vector<double> micros;
  int complete = 0;
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = ParseArgs(argc, argv);
  const auto base = waymesh::bench::BuildObstacleTown(args.town.size, args.town.seed);
  Stopwatch watch;
  const auto served = std::make_shared<const waymesh::NavMap>(
      *base, std::make_shared<const waymesh::SearchTables>(waymesh::SearchTables::Build(*base)));
  std::printf("demo town %.0f m: %llu polygons; search tables built in %.0f ms\n", args.town.size,
              static_cast<unsigned long long>(base->info().polygon_count), watch.ElapsedMs());

  waymesh::NavQuery placer(base);
  std::mt19937 rng(29);
  std::vector<waymesh::Obstacle> obstacles;
  for (int i = 0; i < args.obstacles; ++i) {
    obstacles.push_back(waymesh::bench::RandomObstacle(placer, rng, i));
  }
  watch.Restart();
  auto carved = waymesh::CarveMap(base, obstacles);
  if (!carved.ok()) {
    std::fprintf(stderr, "carve: %s\n", std::string(carved.status().message()).c_str());
    return 1;
  }
  std::printf("%d obstacles carved in %.0f ms: %llu polygons\n", args.obstacles, watch.ElapsedMs(),
              static_cast<unsigned long long>((*carved)->info().polygon_count));
  watch.Restart();
  const auto carved_tables = std::make_shared<const waymesh::NavMap>(
      **carved,
      std::make_shared<const waymesh::SearchTables>(waymesh::SearchTables::Build(**carved)));
  const double tables_ms = watch.ElapsedMs();

  // As the server serves a layer version: the carved map searching with its map's tables.
  if (!waymesh::CanShareSearchTables(*base, obstacles)) {
    std::fprintf(stderr, "the carved map cannot share its map's search tables\n");
    return 1;
  }
  const auto carved_shared =
      std::make_shared<const waymesh::NavMap>(**carved, served->shared_search_tables());

  Subject subjects[] = {
      {"no obstacles (served map, search tables)", std::make_unique<waymesh::NavQuery>(served)},
      {"obstacles, the map's tables (as served)",
       std::make_unique<waymesh::NavQuery>(carved_shared)},
      {"obstacles, no tables", std::make_unique<waymesh::NavQuery>(*carved)},
      {"obstacles, tables built for the version",
       std::make_unique<waymesh::NavQuery>(carved_tables)},
  };
  constexpr int kSubjects = 4;
  const waymesh::QueryFilter all(base->info());
  waymesh::PathResult path;
  for (int i = 0; i < args.queries; ++i) {
    const auto a = placer.RandomPoint(all, rng), b = placer.RandomPoint(all, rng);
    if (!a.ok() || !b.ok() || !*a || !*b) continue;
    // Rotating the order spreads the machine's noise evenly over the subjects.
    for (int k = 0; k < kSubjects; ++k) {
      Subject& s = subjects[(i + k) % kSubjects];
      const Stopwatch query_watch;
      if (!s.query->FindPath((*a)->pos, (*b)->pos, all, {}, &path).ok()) continue;
      s.micros.push_back(query_watch.ElapsedUs());
      s.complete += path.status == waymesh::QueryStatus::kComplete;
    }
  }
  for (const Subject& s : subjects) {
    if (s.micros.empty()) {
      std::fprintf(stderr, "%s: none of the %d FindPath queries ran\n", s.name, args.queries);
      return 1;
    }
  }
  const double reference = Median(subjects[0].micros);
  for (const Subject& s : subjects) {
    std::printf("%-44s median %8.1f us  (%.2fx)  complete %d of %zu\n", s.name, Median(s.micros),
                Median(s.micros) / reference, s.complete, s.micros.size());
  }
  std::printf("search tables of the carved version: built in %.0f ms\n", tables_ms);
  const double ratio = Median(subjects[1].micros) / reference;
  std::printf("FindPath with %d obstacles: %.2fx the time without (target <= %.2fx): %s\n",
              args.obstacles, ratio, kTargetRatio, ratio <= kTargetRatio ? "met" : "NOT met");
  return 0;
}
