#pragma once
// The comparison's printed result: Markdown tables (latency, path length, bytes per polygon,
// targets), ready to paste into docs/PERFORMANCE.md.

#include <cstdint>
#include <ostream>
#include <vector>

#include "vs_detour/comparison.h"
#include "vs_detour/detour_mesh.h"
#include "vs_detour/waymesh_bytes.h"
#include "waymesh/core/plan_twin.h"

namespace waymesh::bench {

// Targets of the comparison (Waymesh relative to Detour, same run).
inline constexpr double kTargetPathTimeRatio = 1.0 / 3.0;  // median path query >= 3x faster
inline constexpr double kTargetBytesRatio = 0.6;           // bytes per polygon
// Exact paths (issue 32): median no slower than Detour's path, p99 at most twice Detour's.
inline constexpr double kTargetExactMedianRatio = 1.0;
inline constexpr double kTargetExactP99Ratio = 2.0;

struct MapReport {
  MapComparison comparison;
  uint64_t waymesh_polygons = 0;
  WaymeshBytes waymesh_bytes;
  DetourMeshStats detour;       // the mesh for path and nearest queries (and bytes)
  DetourMeshStats detour_rays;  // the mesh for raycasts (also cut at straight corners)
  // The optional exact landmark table (--exact-landmarks): landmarks, bytes, build seconds.
  uint32_t exact_landmarks = 0;
  uint64_t exact_landmark_bytes = 0;
  double exact_landmark_seconds = 0;
  // With --exact-twin: the plan twin's polygons; of the queries both complete, on how many
  // exact mode through the twin found the length the map's own search finds (1e-6 relative);
  // and how many queries each completed (the rest hit the node limit).
  PlanTwinReport twin;
  bool twin_asked = false;  // --exact-twin (the tables keep a twin only where it pays)
  uint64_t twin_bytes = 0;  // the twin with its tables and cover
  double twin_build_seconds = 0;   // the twin alone (BuildPlanTwin; `waymesh build --exact-twin`)
  double twin_tables_seconds = 0;  // its dead ends and landmark rows (at every load)
  uint32_t twin_same_length = 0, twin_queries = 0;
  uint32_t twin_complete = 0, map_complete = 0;
};

// Writes every table for `reports` to `out`.
void PrintReport(const std::vector<MapReport>& reports, std::ostream& out);

}  // namespace waymesh::bench
