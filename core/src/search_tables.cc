#include "waymesh/core/search_tables.h"

#include <algorithm>
#include <memory>
#include <utility>

namespace waymesh {

SearchTables SearchTables::Build(const NavMap& map, const Options& options,
                                 StoredSearchTables stored) {
  SearchTables tables;
  if (!stored.exact_landmarks.empty()) {
    tables.exact_landmarks = std::move(stored.exact_landmarks);
  } else if (options.exact_landmarks) {
    tables.exact_landmarks = ExactLandmarkTable::Build(map, options.exact_landmark_count);
  }
  tables.landmarks = LandmarkTable::Build(map);
  tables.dead_ends = DeadEndTable::Build(map);
  tables.clusters = ClusterGraph::Build(map);
  tables.polygon_bases = map.PolygonBases();
  if (stored.exact_twin) {
    tables.exact_twin = WithTwinTables(map, tables.exact_landmarks, *std::move(stored.exact_twin));
  } else if (options.exact_twin && !map.paged()) {
    absl::StatusOr<PlanTwin> twin = BuildPlanTwin(map);
    if (twin.ok() && WorthKeeping(twin->report)) {
      tables.exact_twin = WithTwinTables(map, tables.exact_landmarks, *std::move(twin));
    }
  }
  return tables;
}

bool CanShareSearchTables(const NavMap& base, std::span<const Obstacle> obstacles) {
  uint64_t areas = 0;
  for (const Obstacle& o : obstacles) {
    if (o.effect == ObstacleEffect::kArea) areas |= uint64_t{1} << o.area;
  }
  return CanShareSearchTables(base, areas);
}

bool CanShareSearchTables(const NavMap& base, uint64_t obstacle_areas) {
  const uint64_t present = base.digest().areas_present;
  // Reference costs are the map's costs capped at 1 (landmark_table.h).
  const auto reference = [&](int area) { return std::min(base.info().areas[area].cost, 1.0f); };
  float dearest = 0;  // the highest reference cost an area obstacle may cover
  for (int a = 0; a < kMaxAreas; ++a) {
    if ((present >> a) & 1) dearest = std::max(dearest, reference(a));
  }
  for (int a = 0; a < kMaxAreas; ++a) {
    if (!((obstacle_areas >> a) & 1)) continue;
    if (!((present >> a) & 1) || reference(a) < dearest) return false;
  }
  return true;
}

std::shared_ptr<const NavMap> WithSearchTables(std::shared_ptr<const NavMap> map,
                                               const SearchTables::Options& options,
                                               StoredSearchTables stored) {
  auto tables =
      std::make_shared<const SearchTables>(SearchTables::Build(*map, options, std::move(stored)));
  return std::make_shared<const NavMap>(*map, std::move(tables));
}

}  // namespace waymesh
