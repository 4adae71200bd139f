#include "vs_detour/run_map.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "vs_detour/bench_map.h"
#include "vs_detour/detour_mesh.h"
#include "vs_detour/detour_runner.h"
#include "vs_detour/query_set.h"
#include "vs_detour/waymesh_runner.h"
#include "waymesh/core/plan_twin.h"
#include "waymesh/core/search_tables.h"

namespace waymesh::bench {
namespace {

constexpr uint32_t kMinRepetitions = 3;
constexpr char kDemoName[] = "demo";

double SecondsSince(std::chrono::steady_clock::time_point begin) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
}

}  // namespace

std::vector<MapSpec> DefaultMapSpecs(const std::string& data_dir) {
  const std::string meshes = data_dir + "/polyanya/meshes/";
  const std::string expected = data_dir + "/polyanya/expected/";
  return {
      {"arena", meshes + "arena.mesh", expected + "arena_euclid_expected.csv"},
      {"arena-merged", meshes + "arena-merged.mesh", expected + "arena_merged_euclid_expected.csv"},
      {"aurora", meshes + "aurora.mesh", expected + "aurora_euclid_expected.csv"},
      {"aurora-merged", meshes + "aurora-merged.mesh", expected + "aurora_euclid_expected.csv"},
      {kDemoName, "", ""},
  };
}

absl::StatusOr<MapSpec> ParseMapSpec(absl::string_view text) {
  if (text == kDemoName) return MapSpec{kDemoName, "", ""};
  std::vector<std::string> parts = absl::StrSplit(text, absl::MaxSplits('=', 1));
  if (parts.size() != 2 || parts[0].empty() || parts[1].empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--map '", text, "': expected name=path[,expected.csv] or 'demo'"));
  }
  std::vector<std::string> files = absl::StrSplit(parts[1], absl::MaxSplits(',', 1));
  return MapSpec{parts[0], files[0], files.size() > 1 ? files[1] : ""};
}

absl::StatusOr<MapReport> RunMap(const MapSpec& spec, const RunOptions& options) {
  std::cerr << "[" << spec.name << "] building maps\n";
  absl::StatusOr<BenchMap> loaded = spec.path.empty()
                                        ? BuildDemoWorldMap(spec.name, options.demo)
                                        : LoadBenchMap(spec.name, spec.path, options.repair);
  if (!loaded.ok()) return loaded.status();
  MapReport report;
  if (options.exact_landmarks) {
    const auto begin = std::chrono::steady_clock::now();
    loaded->map = WithSearchTables(
        loaded->map,
        {.exact_landmarks = true, .exact_landmark_count = options.exact_landmark_count});
    const ExactLandmarkTable& table = loaded->map->search_tables()->exact_landmarks;
    report.exact_landmark_seconds = SecondsSince(begin);
    report.exact_landmarks = table.count();
    report.exact_landmark_bytes = table.bytes();
  }
  absl::StatusOr<std::unique_ptr<DetourMesh>> detour_mesh =
      DetourMesh::Build(*loaded->map, DetourConversion{});
  if (!detour_mesh.ok()) return detour_mesh.status();
  absl::StatusOr<std::unique_ptr<DetourMesh>> detour_ray_mesh =
      DetourMesh::Build(*loaded->map, DetourConversion{.cut_straight_corners = true});
  if (!detour_ray_mesh.ok()) return detour_ray_mesh.status();
  absl::StatusOr<std::unique_ptr<DetourRunner>> detour =
      DetourRunner::Create((*detour_mesh)->nav_mesh(), options.half_extents);
  if (!detour.ok()) return detour.status();
  absl::StatusOr<std::unique_ptr<DetourRunner>> detour_rays =
      DetourRunner::Create((*detour_ray_mesh)->nav_mesh(), options.half_extents);
  if (!detour_rays.ok()) return detour_rays.status();
  // Exact mode through the plan twin: the same map, with the twin in its search tables.
  std::shared_ptr<const NavMap> searched = loaded->map;
  if (options.exact_twin) {
    // The twin built once, timed apart from its own tables, then attached beside the map's.
    const auto twin_begin = std::chrono::steady_clock::now();
    absl::StatusOr<PlanTwin> twin = BuildPlanTwin(*loaded->map);
    if (!twin.ok()) return twin.status();
    report.twin_build_seconds = SecondsSince(twin_begin);
    report.twin_asked = true;
    report.twin = twin->report;
    if (WorthKeeping(twin->report) && loaded->map->search_tables() != nullptr) {
      const auto begin = std::chrono::steady_clock::now();
      auto tables = std::make_shared<SearchTables>(*loaded->map->search_tables());
      tables->exact_twin = WithTwinTables(*loaded->map, tables->exact_landmarks, *std::move(twin));
      report.twin_tables_seconds = SecondsSince(begin);
      report.twin_bytes = tables->exact_twin->bytes();
      searched = std::make_shared<const NavMap>(*loaded->map, std::move(tables));
    }
  }
  WaymeshRunner waymesh(searched, options.half_extents, kDetourMaxNodes);

  std::vector<QueryCase> queries;
  if (spec.expected.empty()) {
    queries = RandomReachablePairs(waymesh.query(), options.random_pairs, options.seed);
  } else {
    absl::StatusOr<std::vector<QueryCase>> read = LoadPolyanyaExpected(spec.expected);
    if (!read.ok()) return read.status();
    queries = *std::move(read);
  }
  if (queries.empty()) return absl::FailedPreconditionError(spec.name + ": no queries");
  const uint32_t repetitions = std::max<uint32_t>(
      kMinRepetitions, uint32_t((options.min_samples + queries.size() - 1) / queries.size()));
  std::cerr << "[" << spec.name << "] " << queries.size() << " queries x " << repetitions
            << " repetitions\n";

  if (options.exact_twin) {
    // The twin's answers against the map's own exact search, query by query.
    WaymeshRunner plain(loaded->map, options.half_extents, kDetourMaxNodes);
    for (const QueryCase& q : queries) {
      const PathOutcome on_map = plain.FindExactPath(q.start, q.goal);
      const PathOutcome on_twin = waymesh.FindExactPath(q.start, q.goal);
      report.twin_complete += on_twin.complete;
      report.map_complete += on_map.complete;
      if (!on_map.complete || !on_twin.complete) continue;
      ++report.twin_queries;
      report.twin_same_length +=
          std::abs(on_map.length - on_twin.length) <= 1e-6 * std::max(1.0, on_map.length);
    }
  }
  report.comparison = CompareOnMap(spec.name, *loaded->map, queries, repetitions, waymesh, **detour,
                                   **detour_rays, options.exact_only);
  report.waymesh_polygons = loaded->map->info().polygon_count;
  report.waymesh_bytes = MeasureWaymeshBytes(*loaded->map, loaded->compiled_bytes);
  report.detour = (*detour_mesh)->stats();
  report.detour_rays = (*detour_ray_mesh)->stats();
  return report;
}

}  // namespace waymesh::bench
