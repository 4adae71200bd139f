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

// The twin's exact landmark table, read from the map's (`table`, built on `map`): every twin
// vertex is a map vertex, and the plan-view distances between points are the same on both.
// Empty when `table` is empty or of another map.
ExactLandmarkTable TwinLandmarkTable(const NavMap& map, const ExactLandmarkTable& table,
                                     const NavMap& twin);

}  // namespace waymesh
