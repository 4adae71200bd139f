// vs_detour: Waymesh and Detour side by side on the same polygons, in one process.
// See bench/vs_detour/ for the Detour conversion, the queries and the measurement, and
// docs/PERFORMANCE.md ("Query core vs Detour") for results.

#include <CLI/CLI.hpp>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "common/flags.h"
#include "vs_detour/report.h"
#include "vs_detour/report_each.h"
#include "vs_detour/run_map.h"

int main(int argc, char** argv) {
  namespace wb = waymesh::bench;
  CLI::App app{"Waymesh vs Detour: latency, path length and bytes per polygon on the same maps"};
  std::string data = WAYMESH_SHARED_DATA;
  std::vector<std::string> map_args;
  wb::RunOptions options;
  options.repair.merge = false;
  app.add_option("--data", data, "Shared test data folder (default maps)")->capture_default_str();
  app.add_option("--map", map_args,
                 "Map to compare: name=path[,polyanya_expected.csv] (.mesh, .obj, export JSON or "
                 ".wmesh), or 'demo'; repeatable. Default: arena, arena-merged, aurora, "
                 "aurora-merged, demo");
  app.add_flag("--merge", options.repair.merge,
               "Merge input triangles into convex polygons (default: keep the file's polygons)");
  app.add_option("--demo-size", options.demo.size, "Demo world side (m)")->capture_default_str();
  app.add_option("--pairs", options.random_pairs, "Random query pairs on maps without answers")
      ->capture_default_str();
  app.add_option("--seed", options.seed, "Seed of demo world and random pairs")
      ->capture_default_str();
  app.add_option("--min-samples", options.min_samples,
                 "Timed calls per library and operation, at least")
      ->capture_default_str();
  app.add_flag("--exact-landmarks", options.exact_landmarks,
               "Build the optional exact landmark table (exact mode's heuristic) and report its "
               "bytes and build time");
  app.add_option("--exact-landmark-count", options.exact_landmark_count,
                 "Landmarks of that table (at most 16)")
      ->capture_default_str();
  std::string only;
  app.add_flag("--exact-twin", options.exact_twin,
               "Run exact mode on the map's plan twin (fewer, larger polygons; "
               "waymesh/core/plan_twin.h), with its own exact landmark table when "
               "--exact-landmarks is given");
  app.add_option("--only", only,
                 "Time one kind alone, for a profiler (perf then sees only that search; the other "
                 "latencies print as empty)")
      ->check(CLI::IsMember({"exact"}));
  waymesh::bench::ParseFlagsOrExit(app, argc, argv);
  options.exact_only = only == "exact";
  options.demo.seed = options.seed;
#ifndef NDEBUG
  std::cerr << "vs_detour: warning: assertions are on; timings need a Release build\n";
#endif

  std::vector<wb::MapSpec> specs;
  for (const std::string& arg : map_args) {
    absl::StatusOr<wb::MapSpec> spec = wb::ParseMapSpec(arg);
    if (!spec.ok()) {
      std::cerr << "vs_detour: " << spec.status().message() << "\n";
      return 2;
    }
    specs.push_back(*spec);
  }
  if (specs.empty()) specs = wb::DefaultMapSpecs(data);

  const std::optional<std::vector<wb::MapReport>> reports = wb::ReportEach(
      "vs_detour", specs, [&](const wb::MapSpec& spec) { return wb::RunMap(spec, options); });
  if (!reports) return 1;
  wb::PrintReport(*reports, std::cout);
  return 0;
}
