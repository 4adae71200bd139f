#pragma once
// The plan-view twin of a map, for the exact (any-angle) search: the same walkable plan area,
// tile grid, walls, seams, areas, flags and off-mesh links, cut into far fewer convex polygons.
// A fine mesh over rolling ground holds many vertices that only carry heights; a shortest path
// in plan view bends only at wall corners, so those vertices are removed and each region of
// one area and flag set is merged into convex polygons without a corner limit beyond the
// map's (tol::kMaxVertsPerPolyLimit). Every vertex of the twin is a vertex of the map, at its
// height, so the corners a path turns at keep theirs; heights inside a twin polygon are not
// the surface's.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/core/exact_landmark_table.h"
#include "waymesh/core/nav_map.h"

namespace waymesh {

struct PlanTwinReport {
  uint64_t polygons_before = 0;
  uint64_t polygons_after = 0;
  uint64_t vertices_removed = 0;  // inner vertices dropped before merging
};

struct PlanTwin {
  std::shared_ptr<const NavMap> map;
  // Per polygon of the map (global index: its tile's NavMap::PolygonBases entry plus its
  // index), the twin polygons sharing plan area with it: cover[cover_start[g], cover_start[g+1]).
  std::vector<uint32_t> cover_start;
  std::vector<PolyIndex> cover;
  PlanTwinReport report;

  // The twin's tiles, its search tables and the cover.
  size_t bytes() const;
};

// The twin of a resident map (a paged map is an error).
absl::StatusOr<PlanTwin> BuildPlanTwin(const NavMap& map);

// Whether a twin is worth keeping: at most 2/3 of the map's polygons. A twin that cuts fewer
// costs memory for little speed (maps merged well already, like Polyanya's aurora-merged: 0.95).
bool WorthKeeping(const PlanTwinReport& report);

// `twin` (of `map`, built or read from the map's file) ready for exact mode: its map carries
// the tables the exact search consults on it, dead ends and the map's exact landmark table
// read through the twin's vertices (`map_landmarks`, may be empty).
std::shared_ptr<const PlanTwin> WithTwinTables(const NavMap& map,
                                               const ExactLandmarkTable& map_landmarks,
                                               PlanTwin twin);

// The twin's exact landmark table, read from the map's (`table`, built on `map`): every twin
// vertex is a map vertex, and the plan-view distances between points are the same on both.
// Empty when `table` is empty or of another map, or a twin vertex is not one of the map's.
ExactLandmarkTable TwinLandmarkTable(const NavMap& map, const ExactLandmarkTable& table,
                                     const NavMap& twin);

}  // namespace waymesh
