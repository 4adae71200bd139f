#pragma once
// Side-by-side measurement on one map: every query runs through both libraries, interleaved
// (the order alternates per query and repetition so neither library always runs on a warm
// cache), after one untimed warm-up pass.

#include <cstdint>
#include <string>
#include <vector>

#include "vs_detour/detour_runner.h"
#include "vs_detour/query_set.h"
#include "vs_detour/stats.h"
#include "vs_detour/waymesh_runner.h"

namespace waymesh::bench {

// One library's numbers on one map.
struct LibraryResult {
  LatencySummary path;         // nearest (start, goal) + path + straight path
  LatencySummary nearest;      // nearest alone
  LatencySummary raycast;      // raycast from a snapped start
  RatioSummary length;         // length / published optimum, over queries both complete
  uint32_t complete = 0;       // queries with a complete path
  uint32_t below_optimum = 0;  // shorter than the optimum: a broken mesh or query
  double mean_expanded = 0;    // A* nodes expanded per path query
  // Exact mode only: the median and 90th percentile of nodes expanded.
  uint32_t median_expanded = 0, p90_expanded = 0;
};

struct MapComparison {
  std::string map;
  size_t queries = 0;
  uint32_t repetitions = 0;
  LibraryResult waymesh, detour;
  // Waymesh's exact mode (path, length, complete, below_optimum, mean_expanded: interval
  // nodes expanded).
  LibraryResult exact;
  RatioSummary length_vs_detour;  // Waymesh length / Detour length, queries both complete  //
                                  // Raycasts stopping at the same fraction in Waymesh and in Detour
                                  // on the path mesh / on the
  // raycast mesh (polygons also cut at straight corners, see DetourConversion).
  uint32_t rays_agreeing = 0;
  uint32_t rays_agreeing_cut = 0;
  // On single-floor maps (those with published optima): raycasts ending at the first wall
  // crossing (WallCrossing), per library; -1 when not checked.
  int rays_true_waymesh = -1;
  int rays_true_detour = -1;
};

// Measures `queries` `repetitions` times per library and operation. Detour answers path and
// nearest queries on `detour` and raycasts on `detour_rays`, each its best-suited conversion;
// `nav_map` (the map Waymesh answers on) gives the raycast ground truth. With `exact_only`
// the timed passes run exact mode alone (for a profiler; the other latencies stay empty).
MapComparison CompareOnMap(const std::string& name, const NavMap& nav_map,
                           const std::vector<QueryCase>& queries, uint32_t repetitions,
                           WaymeshRunner& waymesh, DetourRunner& detour, DetourRunner& detour_rays,
                           bool exact_only = false);

}  // namespace waymesh::bench
