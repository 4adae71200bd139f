// Long paths with the cluster graph (issue 31): the same FindPath queries with the plain search
// (NavQueryOptions::hierarchy = false) and routed over the cluster graph (docs/hierarchy.md),
// timed side by side, query by query, in one run; on paths longer than 500 m and shorter than
// 50 m. Also prints the mean path length ratio, the A* nodes and the tiles each query touches
// (counted on a paged copy of the map), and the graph's bytes and build time beside the map's.
// With --detour, Detour's findPath + findStraightPath (the map converted as bench/vs_detour
// does, the default filter's area costs scaled to a cheapest of 1: AdmissibleCosts) is timed
// on the same pairs, in the same rotation.
// Run:
//   build/dev/bench/hierarchy_bench --map town=town1024.wmesh [--map world=world16.wmesh]
//       [--long 300] [--short 1000] [--reps 3] [--seed 1] [--cluster-tiles 1] [--detour]
//       [--only plain|hierarchical] [--stored-corridors=false]
// `--only` times one kind alone (for a profiler: `perf record` then sees only that search;
// the table leaves the other kind's times empty and prints no speed-up).
// `--help` lists the flags; docs/PERFORMANCE.md ("Long paths (hierarchy)") has the maps.

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "CLI/CLI.hpp"
#include "common/flags.h"
#include "common/map_without_tables.h"
#include "common/stopwatch.h"
#include "vs_detour/detour_mesh.h"
#include "vs_detour/detour_runner.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/core/tile_source.h"
#include "waymesh/format/map_file.h"

namespace {

using waymesh::bench::Stopwatch;

constexpr float kLongPath = 500;        // metres (plan view), at least
constexpr float kShortPath = 50;        // metres, less than
constexpr double kTargetLong = 10;      // issue 31: long paths at least 10x faster
constexpr double kTargetVsDetour = 20;  // and at least 20x faster than Detour
constexpr int kMaxPairs = 100000;
constexpr int kMaxReps = 1000;
// Random draws per wanted pair before giving up (a map without long paths, say).
constexpr int kDrawsPerPair = 200;

struct Args {
  std::vector<std::string> maps;  // NAME=FILE.wmesh
  int long_pairs = 300;
  int short_pairs = 1000;
  int reps = 3;
  uint64_t seed = 1;
  uint32_t cluster_tiles = waymesh::ClusterGraph::kDefaultTilesPerSide;
  bool detour = false;
  bool stored_corridors = true;  // ClusterGraph::Build's store_corridors
  // Which kinds are timed: bit 0 the plain search, bit 1 the hierarchical one.
  int timed = 3;
};

Args ParseArgs(int argc, char** argv) {
  Args a;
  CLI::App app{"FindPath plain vs with the cluster graph, side by side"};
  const CLI::Validator name_equals_file(
      [](std::string& spec) {
        const size_t eq = spec.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size()) {
          return "expected NAME=FILE.wmesh, got " + spec;
        }
        return std::string();
      },
      "NAME=FILE");
  app.add_option("--map", a.maps, "NAME=FILE.wmesh (repeatable)")
      ->required()
      ->check(name_equals_file);
  app.add_option("--long", a.long_pairs, "pairs farther apart than 500 m")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxPairs));
  app.add_option("--short", a.short_pairs, "pairs closer than 50 m")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxPairs));
  app.add_option("--reps", a.reps, "timed calls per query and kind")
      ->capture_default_str()
      ->check(CLI::Range(1, kMaxReps));
  app.add_option("--seed", a.seed, "seed of the random pairs")->capture_default_str();
  app.add_option("--cluster-tiles", a.cluster_tiles, "tiles per cluster side")
      ->capture_default_str()
      ->check(CLI::Range(1u, waymesh::ClusterGraph::kMaxTilesPerSide));
  app.add_flag("--detour", a.detour,
               "also time Detour's findPath + findStraightPath on the same pairs");
  app.add_option("--stored-corridors", a.stored_corridors,
                 "store the corridors between entrances (false: every leg is searched)")
      ->capture_default_str();
  std::string only;
  app.add_option("--only", only, "time one kind alone (for profiling)")
      ->check(CLI::IsMember({"plain", "hierarchical"}));
  waymesh::bench::ParseFlagsOrExit(app, argc, argv);
  if (!only.empty()) a.timed = only == "plain" ? 1 : 2;
  return a;
}

// Serves a resident map's tiles as a paged map would, counting the tiles one query acquires
// (a query acquires each tile it reaches once and keeps it pinned until it returns).
class CountingSource : public waymesh::TileSource {
 public:
  explicit CountingSource(std::shared_ptr<const waymesh::NavMap> resident)
      : resident_(std::move(resident)) {}
  std::shared_ptr<const waymesh::TileView> Acquire(uint32_t index) const override {
    ++acquired_;
    // Points into the resident map, which outlives every view.
    return std::shared_ptr<const waymesh::TileView>(&resident_->tile(index),
                                                    [](const waymesh::TileView*) {});
  }
  int TakeCount() const { return acquired_.exchange(0); }

 private:
  std::shared_ptr<const waymesh::NavMap> resident_;
  mutable std::atomic<int> acquired_{0};
};

struct Pair {
  waymesh::Vec3 a, b;
};

double Percentile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, size_t(q * double(v.size())))];
}

// The map with its search tables, timing the cluster graph apart from the other tables.
struct Served {
  std::shared_ptr<const waymesh::NavMap> map;
  double tables_ms = 0, graph_ms = 0;
  size_t graph_bytes = 0;
  uint32_t entrances = 0;
  uint32_t clusters = 0;
  size_t corridor_bytes = 0;  // of graph_bytes: the stored corridors (0: none stored)
};

Served Serve(const std::string& path, uint32_t cluster_tiles, bool stored_corridors) {
  const auto loaded = waymesh::bench::LoadMapWithoutTables(path);
  const waymesh::NavMap& m = *loaded;
  auto tables = std::make_shared<waymesh::SearchTables>();
  Served s;
  Stopwatch w;
  tables->landmarks = waymesh::LandmarkTable::Build(m);
  tables->dead_ends = waymesh::DeadEndTable::Build(m);
  tables->polygon_bases = m.PolygonBases();
  s.tables_ms = w.ElapsedMs();
  w.Restart();
  tables->clusters = waymesh::ClusterGraph::Build(m, cluster_tiles, stored_corridors);
  s.graph_ms = w.ElapsedMs();
  s.graph_bytes = tables->clusters.bytes();
  s.corridor_bytes = tables->clusters.corridors().bytes();
  s.entrances = tables->clusters.entrance_count();
  s.clusters = tables->clusters.cluster_count();
  s.map = std::make_shared<const waymesh::NavMap>(m, std::move(tables));
  return s;
}

// Random pairs of the map's default filter whose plain path is complete, `want` of them,
// farther than kLongPath (long) or closer than kShortPath.
std::vector<Pair> DrawPairs(waymesh::NavQuery& q, bool long_paths, int want, std::mt19937& rng) {
  const waymesh::QueryFilter filter(q.map().info());
  std::vector<Pair> out;
  waymesh::PathResult path;
  for (int draw = 0; draw < want * kDrawsPerPair && int(out.size()) < want; ++draw) {
    const auto a = q.RandomPoint(filter, rng);
    if (!a.ok() || !*a) break;
    const auto b = long_paths ? q.RandomPoint(filter, rng)
                              : q.RandomPointInCircle(**a, kShortPath, filter, rng);
    if (!b.ok() || !*b) continue;
    const float d = waymesh::DistanceXZ((*a)->pos, (*b)->pos);
    if (long_paths ? d <= kLongPath : d >= kShortPath) continue;
    if (!q.FindPath(**a, **b, filter, {}, &path).ok()) continue;
    if (path.status != waymesh::QueryStatus::kComplete) continue;
    out.push_back({(*a)->pos, (*b)->pos});
  }
  return out;
}

// One kind of search: its query object and what it measured.
struct Kind {
  std::unique_ptr<waymesh::NavQuery> query;
  std::vector<double> micros;
  std::vector<double> lengths;  // per pair
  double nodes = 0, tiles = 0, corridor = 0;
  int hierarchical = 0;
};

// "median / p99" of `micros`, or "-" when that kind was not timed.
std::string Timing(const std::vector<double>& micros) {
  if (micros.empty()) return "-";
  char text[64];
  std::snprintf(text, sizeof text, "%.1f / %.1f", Percentile(micros, 0.5),
                Percentile(micros, 0.99));
  return text;
}

// Detour on the same pairs: its runner (null without --detour) and what it measured.
struct DetourKind {
  waymesh::bench::DetourRunner* runner = nullptr;
  std::vector<double> micros;
  int complete = 0;         // pairs of the untimed pass Detour found whole
  double length_ratio = 0;  // sum over those pairs of Detour's length / the plain search's
};

// How many times faster than Detour a kind's median is ("-" when that kind was not timed).
std::string VsDetour(double detour_median, const std::vector<double>& micros) {
  if (micros.empty()) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%.2fx", detour_median / Percentile(micros, 0.5));
  return text;
}

// One row of the Detour table, kept until every map has run.
std::string DetourRow(const char* map, const char* band, size_t pairs, const Kind& plain,
                      const Kind& hier, const DetourKind& detour) {
  if (detour.micros.empty()) return {};
  const double dm = Percentile(detour.micros, 0.5);
  char row[256];
  std::snprintf(row, sizeof row, "| %s | %s | %d / %zu | %s | %.5f | %s | %s |", map, band,
                detour.complete, pairs, Timing(detour.micros).c_str(),
                detour.length_ratio / std::max(detour.complete, 1),
                VsDetour(dm, plain.micros).c_str(), VsDetour(dm, hier.micros).c_str());
  return row;
}

void Report(const char* map, const char* band, const std::vector<Pair>& pairs, Kind& plain,
            Kind& hier) {
  if (pairs.empty()) {
    std::printf("| %s | %s | 0 pairs | | | | | | |\n", map, band);
    return;
  }
  double ratio_sum = 0;
  for (size_t i = 0; i < pairs.size(); ++i) ratio_sum += hier.lengths[i] / plain.lengths[i];
  const double n = double(pairs.size());
  if (plain.micros.empty() || hier.micros.empty()) {
    std::printf(
        "| %s | %s | %zu (%d hierarchical) | %s | %s | | %.5f | %.0f / %.0f | %.1f / %.1f |\n", map,
        band, pairs.size(), hier.hierarchical, Timing(plain.micros).c_str(),
        Timing(hier.micros).c_str(), ratio_sum / n, plain.nodes / n, hier.nodes / n,
        plain.tiles / n, hier.tiles / n);
    return;
  }
  const double pm = Percentile(plain.micros, 0.5), hm = Percentile(hier.micros, 0.5);
  std::printf(
      "| %s | %s | %zu (%d hierarchical) | %.1f / %.1f | %.1f / %.1f | %.2fx | %.5f | %.0f / %.0f "
      "(path %.0f) | %.1f / %.1f |\n",
      map, band, pairs.size(), hier.hierarchical, pm, Percentile(plain.micros, 0.99), hm,
      Percentile(hier.micros, 0.99), pm / hm, ratio_sum / n, plain.nodes / n, hier.nodes / n,
      plain.corridor / n, plain.tiles / n, hier.tiles / n);
}

// Times every pair with the kinds `timed` selects (bit 0 plain, bit 1 hierarchical) and Detour
// when it runs, rotating which goes first, then counts tiles on the paged copy.
std::string Measure(const char* map, const char* band, const std::vector<Pair>& pairs,
                    const Served& served, const std::shared_ptr<const waymesh::NavMap>& paged,
                    const CountingSource& source, int reps, int timed, DetourKind detour) {
  const waymesh::QueryFilter filter(served.map->info());
  Kind kinds[2];
  for (int k = 0; k < 2; ++k) {
    kinds[k].query = std::make_unique<waymesh::NavQuery>(
        served.map, waymesh::NavQueryOptions{.hierarchy = k == 1});
  }
  waymesh::PathResult path;
  if (detour.runner != nullptr) timed |= 4;
  for (int r = 0; r < reps; ++r) {
    for (size_t i = 0; i < pairs.size(); ++i) {
      for (int j = 0; j < 3; ++j) {
        const int k = int((i + r + j) % 3);  // 2 is Detour
        if (((timed >> k) & 1) == 0) continue;
        Stopwatch w;
        if (k == 2) {
          detour.runner->FindPath(pairs[i].a, pairs[i].b);
          detour.micros.push_back(w.ElapsedUs());
          continue;
        }
        const auto status = kinds[k].query->FindPath(pairs[i].a, pairs[i].b, filter, {}, &path);
        kinds[k].micros.push_back(w.ElapsedUs());
        if (!status.ok()) std::exit(1);
      }
    }
  }
  for (int k = 0; k < 2; ++k) {
    waymesh::NavQuery counted(paged, waymesh::NavQueryOptions{.hierarchy = k == 1});
    for (const Pair& p : pairs) {
      source.TakeCount();
      if (!counted.FindPath(p.a, p.b, filter, {}, &path).ok()) std::exit(1);
      kinds[k].tiles += source.TakeCount();
      kinds[k].nodes += path.nodes_expanded;
      kinds[k].corridor += double(path.corridor.size());
      kinds[k].lengths.push_back(path.length);
      kinds[k].hierarchical += path.hierarchical ? 1 : 0;
    }
  }
  for (size_t i = 0; detour.runner != nullptr && i < pairs.size(); ++i) {
    const waymesh::bench::PathOutcome d = detour.runner->FindPath(pairs[i].a, pairs[i].b);
    if (!d.complete) continue;
    ++detour.complete;
    detour.length_ratio += d.length / kinds[0].lengths[i];
  }
  Report(map, band, pairs, kinds[0], kinds[1]);
  return DetourRow(map, band, pairs.size(), kinds[0], kinds[1], detour);
}

// The default filter's area costs scaled so that the cheapest allowed area costs 1. Detour's
// A* estimates the rest of a path by its straight-line length, which overestimates when an
// area costs less than 1 (the demo worlds' roads cost 0.5): its search then turns greedy and
// its paths are not the cheapest (measured: medians 20x lower, paths of other costs, and
// re-expansions that took single queries to seconds). Scaled, both libraries look for the
// same cheapest paths.
waymesh::QueryFilter AdmissibleCosts(const waymesh::MapInfo& info) {
  waymesh::QueryFilter filter(info);
  float cheapest = 1;
  for (uint64_t m = filter.area_mask(); m != 0; m &= m - 1) {
    cheapest = std::min(cheapest, filter.Cost(uint8_t(std::countr_zero(m))));
  }
  for (int a = 0; a < waymesh::kMaxAreas; ++a) filter.SetAreaCost(a, filter.Cost(a) / cheapest);
  return filter;
}

// Detour's navmesh of `map` and a query on it under AdmissibleCosts; exits when the
// conversion fails.
struct DetourSide {
  std::unique_ptr<waymesh::bench::DetourMesh> mesh;
  std::unique_ptr<waymesh::bench::DetourRunner> runner;
};

DetourSide BuildDetour(const waymesh::NavMap& map) {
  DetourSide d;
  auto mesh = waymesh::bench::DetourMesh::Build(map, waymesh::bench::DetourConversion{});
  if (!mesh.ok()) {
    std::fprintf(stderr, "Detour conversion: %s\n", std::string(mesh.status().message()).c_str());
    std::exit(1);
  }
  d.mesh = *std::move(mesh);
  auto runner = waymesh::bench::DetourRunner::Create(d.mesh->nav_mesh(), {2.0f, 4.0f, 2.0f});
  if (!runner.ok()) {
    std::fprintf(stderr, "%s\n", std::string(runner.status().message()).c_str());
    std::exit(1);
  }
  d.runner = *std::move(runner);
  d.runner->SetAreaCosts(AdmissibleCosts(map.info()));
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  const Args args = ParseArgs(argc, argv);
  std::printf(
      "| map | paths | pairs | plain µs median / p99 | hierarchy µs median / p99 | speed-up "
      "(medians) | mean length hier / plain | A* nodes plain / hier | tiles touched plain / "
      "hier |\n|---|---|---|---|---|---|---|---|---|\n");
  std::vector<std::string> summary, detour_rows;
  for (const std::string& spec : args.maps) {
    const size_t eq = spec.find('=');  // ParseArgs checked the form
    const std::string name = spec.substr(0, eq), path = spec.substr(eq + 1);
    const Served served = Serve(path, args.cluster_tiles, args.stored_corridors);
    auto source = std::make_shared<CountingSource>(served.map);
    const auto unpaged =
        std::make_shared<const waymesh::NavMap>(served.map->info(), served.map->digest(), source);
    const auto paged =
        std::make_shared<const waymesh::NavMap>(*unpaged, served.map->shared_search_tables());
    waymesh::NavQuery placer(served.map, {.hierarchy = false});
    std::mt19937 rng(uint32_t(args.seed));
    const auto long_pairs = DrawPairs(placer, true, args.long_pairs, rng);
    const auto short_pairs = DrawPairs(placer, false, args.short_pairs, rng);
    DetourSide detour;
    if (args.detour) detour = BuildDetour(*served.map);
    for (const auto& [band, pairs] :
         {std::pair{"> 500 m", &long_pairs}, {"< 50 m", &short_pairs}}) {
      detour_rows.push_back(Measure(name.c_str(), band, *pairs, served, paged, *source, args.reps,
                                    args.timed, DetourKind{detour.runner.get()}));
    }
    const double map_bytes = double(std::filesystem::file_size(path));
    char line[512];
    std::snprintf(line, sizeof line,
                  "%s: %u polygons in %u tiles, map %.1f MB; cluster graph of %ux%u tiles: %u "
                  "clusters, %u entrances, %.2f MB (%.1f %% of the map; stored corridors %.2f MB), "
                  "built in %.0f ms (other search tables %.0f ms)",
                  name.c_str(), unsigned(served.map->info().polygon_count),
                  served.map->tile_count(), map_bytes / 1e6, args.cluster_tiles, args.cluster_tiles,
                  served.clusters, served.entrances, double(served.graph_bytes) / 1e6,
                  100.0 * double(served.graph_bytes) / map_bytes,
                  double(served.corridor_bytes) / 1e6, served.graph_ms, served.tables_ms);
    summary.push_back(line);
  }
  std::printf("\n");
  for (const std::string& s : summary) std::printf("- %s\n", s.c_str());
  std::printf("\nTarget on paths > 500 m: speed-up >= %.0fx (median over median).\n", kTargetLong);
  if (args.detour) {
    std::printf(
        "\nDetour (findPath + findStraightPath, the default filter's area costs scaled to a "
        "cheapest of 1, same pairs in the same rotation):\n\n| map | paths | complete Detour | "
        "Detour µs median / p99 | mean "
        "length Detour / plain | plain vs Detour | hierarchy vs Detour |\n|---|---|---|---|---|---|"
        "---|\n");
    for (const std::string& row : detour_rows) {
      if (!row.empty()) std::printf("%s\n", row.c_str());
    }
    std::printf("\nTarget on paths > 500 m: hierarchy >= %.0fx faster than Detour (medians).\n",
                kTargetVsDetour);
  }
  return 0;
}
