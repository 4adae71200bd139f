// `waymesh path MAP.wmesh --queries FILE [--obstacles FILE] [--out results.csv]
// [--extents x,y,z] [--exact]`: runs a file of path queries against a compiled map (with obstacles
// carved in) and prints counts by status, time per query and, where the file gives expected
// lengths, the length ratio.

#include <algorithm>
#include <chrono>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_format.h"
#include "cli_options.h"
#include "commands.h"
#include "map_arg.h"
#include "obstacles_arg.h"
#include "position_arg.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/query_files/path_queries.h"

namespace waymesh::cli {
namespace {

struct PathArgs {
  std::string map_path;
  std::string queries_path;
  std::string obstacles_path;
  std::string out_path;
  std::string extents = "2,4,2";
  bool exact = false;  // exact shortest paths (waymesh/core/exact_path.h)
  bool exact_twin = false;  // exact mode through the map's plan twin (plan_twin.h)
};

std::string WaypointText(const PathResult& r) {
  std::string s;
  for (const Waypoint& w : r.waypoints) {
    if (!s.empty()) s += ';';
    absl::StrAppendFormat(&s, "%.7g %.7g %.7g", w.pos.x, w.pos.y, w.pos.z);
  }
  return s;
}

struct Summary {
  std::vector<int> by_status = std::vector<int>(5, 0);
  std::vector<double> micros;
  std::vector<double> nodes;  // A* nodes expanded, per query that found a path
  double ratio_sum = 0, ratio_worst = 0;
  int ratios = 0, below_expected = 0;
};

// Mean, median, 99th percentile and largest value of a sample that is not empty.
struct Spread {
  double mean, median, p99, max;
};
Spread SpreadOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (double x : v) sum += x;
  return {sum / v.size(), v[v.size() / 2], v[std::min(v.size() - 1, v.size() * 99 / 100)],
          v.back()};
}

void PrintSummary(const Summary& s, std::ostream& out) {
  for (int i = 0; i < 5; ++i) {
    out << absl::StrFormat("%-15s %d\n", QueryStatusName(QueryStatus(i)), s.by_status[i]);
  }
  if (!s.micros.empty()) {
    const Spread t = SpreadOf(s.micros);
    out << absl::StrFormat(
        "time per query  mean %.1f us, median %.1f us, p99 %.1f us, max %.1f us\n", t.mean,
        t.median, t.p99, t.max);
  }
  if (!s.nodes.empty()) {
    const Spread n = SpreadOf(s.nodes);
    out << absl::StrFormat("nodes expanded  mean %.1f, median %.0f, p99 %.0f, max %.0f\n", n.mean,
                           n.median, n.p99, n.max);
  }
  if (s.ratios > 0) {
    out << absl::StrFormat(
        "length / expected  mean %.5f, worst %.5f over %d queries (%d shorter than expected)\n",
        s.ratio_sum / s.ratios, s.ratio_worst, s.ratios, s.below_expected);
  }
}

int RunPath(const PathArgs& args) {
  absl::StatusOr<Vec3> extents = ParseHalfExtents(args.extents, "--extents");
  if (!extents.ok()) {
    std::cerr << "waymesh path: " << extents.status().message() << "\n";
    return kExitUsage;
  }
  std::shared_ptr<const NavMap> map =
      LoadMapArg("path", args.map_path, {.exact_twin = args.exact_twin});
  if (map == nullptr) return kExitFailure;
  if (int rc = ApplyObstaclesArg("path", args.obstacles_path, &map, nullptr); rc != kExitOk) {
    return rc;
  }
  if (args.exact) {
    // Queries vary only the flags, which exact mode does not mind: one check for all of them.
    if (absl::Status s = CheckExactPathSupport(*map, QueryFilter(map->info())); !s.ok()) {
      std::cerr << "waymesh path: --exact: " << s.message() << "\n";
      return kExitUsage;
    }
  }
  absl::StatusOr<std::vector<PathQuery>> queries = ReadPathQueries(args.queries_path);
  if (!queries.ok()) {
    std::cerr << "waymesh path: " << queries.status().message() << "\n";
    return kExitFailure;
  }
  std::ofstream csv;
  if (!args.out_path.empty()) {
    csv.open(args.out_path);
    if (!csv) {
      std::cerr << "waymesh path: " << args.out_path << ": cannot write\n";
      return kExitFailure;
    }
    csv << "query,status,length,micros,waypoints\n";
  }
  NavQuery query(map);
  PathOptions options;
  options.half_extents = *extents;
  if (args.exact) options.mode = PathMode::kExact;
  PathResult result;
  Summary summary;
  for (size_t i = 0; i < queries->size(); ++i) {
    const PathQuery& q = (*queries)[i];
    QueryFilter filter(map->info());
    filter.set_include_flags(q.include_flags);
    filter.set_exclude_flags(q.exclude_flags);
    const auto t0 = std::chrono::steady_clock::now();
    absl::Status status = query.FindPath(q.start, q.goal, filter, options, &result);
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    if (!status.ok()) {
      std::cerr << "waymesh path: " << args.queries_path << ":" << q.line << ": "
                << status.message() << "\n";
      return kExitFailure;
    }
    summary.micros.push_back(us);
    if (result.status == QueryStatus::kComplete || result.status == QueryStatus::kPartial) {
      summary.nodes.push_back(result.nodes_expanded);
    }
    summary.by_status[int(result.status)]++;
    if (q.expected > 0 && result.status == QueryStatus::kComplete) {
      const double ratio = result.length / q.expected;
      summary.ratio_sum += ratio;
      summary.ratio_worst = std::max(summary.ratio_worst, ratio);
      summary.ratios++;
      if (ratio < 1 - 1e-4) summary.below_expected++;
    }
    if (csv.is_open()) {
      csv << absl::StrFormat("%d,%s,%.6f,%.1f,%s\n", i, QueryStatusName(result.status),
                             result.length, us, WaypointText(result));
    }
  }
  std::cout << absl::StrFormat("%d queries on %s\n", queries->size(), args.map_path);
  PrintSummary(summary, std::cout);
  if (csv.is_open()) {
    csv.close();
    if (!csv) {
      std::cerr << "waymesh path: " << args.out_path << ": write failed\n";
      return kExitFailure;
    }
  }
  return kExitOk;
}

}  // namespace

void RegisterPath(CLI::App* cmd, int* exit_code) {
  auto args = std::make_shared<PathArgs>();
  AddMapArg(cmd, args->map_path);
  AddInputFile(cmd, "--queries", args->queries_path,
               "query file: 'sx sy gx gy [expected]' (2D), 'sx sy sz gx gy gz [expected]' "
               "(3D), Polyanya .scen or Recast 'pf' rows; '#' starts a comment");
  AddObstaclesOption(cmd, args->obstacles_path);
  cmd->add_option("--out", args->out_path,
                  "write results.csv: query,status,length,micros,waypoints ('x y z;...')");
  AddExtents(cmd, args->extents, "start and goal");
  cmd->add_flag("--exact", args->exact,
                "exact shortest paths (off-mesh links at their cost, round any --obstacles) "
                "instead of the approximate A* (needs one cost over the areas a query allows)");
  cmd->add_flag("--exact-twin", args->exact_twin,
                "with --exact: build the map's plan twin at load and search it (the same paths, "
                "faster on fine meshes; docs/api.md \"Plan twin\")")
      ->needs("--exact");
  cmd->callback([args, exit_code] { *exit_code = RunPath(*args); });
}

}  // namespace waymesh::cli
