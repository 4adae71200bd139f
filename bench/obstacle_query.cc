// FindPath with obstacles (issue 29): the same queries on the demo town without obstacles (as
// served: with its search tables) and with N block obstacles carved in (as an obstacle layer
// version is served: searching with the map's tables through the carved polygons' origins),
// beside the carved map without tables and with tables built for it, timed side by side, query
// by query, in one run. Run:
//   build/rel/bench/obstacle_query [--size 1024] [--seed 7] [--obstacles 1000] [--queries 2000]
// Prints the median FindPath time of each and their ratio (target: with obstacles within 1.2x).

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "obstacle_world/obstacle_world.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/obstacles/carve_map.h"
#include "waymesh/core/search_tables.h"

namespace {

using Clock = std::chrono::steady_clock;
double Micros(Clock::time_point since) {
  return std::chrono::duration<double, std::micro>(Clock::now() - since).count();
}

struct Args {
  double size = 1024;
  uint64_t seed = 7;
  int obstacles = 1000;
  int queries = 2000;
};

Args ParseArgs(int argc, char** argv) {
  Args args;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string_view flag = argv[i];
    if (flag == "--size") {
      args.size = std::atof(argv[i + 1]);
    } else if (flag == "--seed") {
      args.seed = std::strtoull(argv[i + 1], nullptr, 10);
    } else if (flag == "--obstacles") {
      args.obstacles = std::atoi(argv[i + 1]);
    } else if (flag == "--queries") {
      args.queries = std::atoi(argv[i + 1]);
    } else {
      std::fprintf(stderr, "unknown flag %s\n", argv[i]);
      std::exit(2);
    }
  }
  return args;
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
  const auto base = waymesh::bench::BuildObstacleTown(args.size, args.seed);
  auto t0 = Clock::now();
  const auto served = std::make_shared<const waymesh::NavMap>(
      *base, std::make_shared<const waymesh::SearchTables>(waymesh::SearchTables::Build(*base)));
  std::printf("demo town %.0f m: %llu polygons; search tables built in %.0f ms\n", args.size,
              static_cast<unsigned long long>(base->info().polygon_count), Micros(t0) / 1000);

  waymesh::NavQuery placer(base);
  std::mt19937 rng(29);
  std::vector<waymesh::Obstacle> obstacles;
  for (int i = 0; i < args.obstacles; ++i) {
    obstacles.push_back(waymesh::bench::RandomObstacle(placer, rng, i));
  }
  t0 = Clock::now();
  auto carved = waymesh::CarveMap(base, obstacles);
  if (!carved.ok()) {
    std::fprintf(stderr, "carve: %s\n", std::string(carved.status().message()).c_str());
    return 1;
  }
  std::printf("%d obstacles carved in %.0f ms: %llu polygons\n", args.obstacles,
              Micros(t0) / 1000, static_cast<unsigned long long>((*carved)->info().polygon_count));
  t0 = Clock::now();
  const auto carved_tables = std::make_shared<const waymesh::NavMap>(
      **carved,
      std::make_shared<const waymesh::SearchTables>(waymesh::SearchTables::Build(**carved)));
  const double tables_ms = Micros(t0) / 1000;

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
      const auto start = Clock::now();
      if (!s.query->FindPath((*a)->pos, (*b)->pos, all, {}, &path).ok()) continue;
      s.micros.push_back(Micros(start));
      s.complete += path.status == waymesh::QueryStatus::kComplete;
    }
  }
  const double reference = Median(subjects[0].micros);
  for (const Subject& s : subjects) {
    std::printf("%-44s median %8.1f us  (%.2fx)  complete %d of %zu\n", s.name, Median(s.micros),
                Median(s.micros) / reference, s.complete, s.micros.size());
  }
  std::printf("search tables of the carved version: built in %.0f ms\n", tables_ms);
  const double ratio = Median(subjects[1].micros) / reference;
  std::printf("FindPath with %d obstacles: %.2fx the time without (target <= 1.20x): %s\n",
              args.obstacles, ratio, ratio <= 1.2 ? "met" : "NOT met");
  return 0;
}
