#include "waymesh/core/search_tables.h"

#include <algorithm>
#include <memory>
#include <utility>

namespace waymesh {

SearchTables SearchTables::Build(const NavMap& map, const Options& options,
                                 ExactLandmarkTable stored) {
  SearchTables tables;
  if (!stored.empty()) {
    tables.exact_landmarks = std::move(stored);
  } else if (options.exact_landmarks) {
    tables.exact_landmarks = ExactLandmarkTable::Build(map, options.exact_landmark_count);
  }
  tables.landmarks = LandmarkTable::Build(map);
  tables.dead_ends = DeadEndTable::Build(map);
  tables.clusters = ClusterGraph::Build(map);
  tables.polygon_bases = map.PolygonBases();
  if (options.exact_twin && !map.paged()) {
    absl::StatusOr<PlanTwin> twin = BuildPlanTwin(map);
    // A twin that does not cut the polygons to 2/3 would cost memory for little speed (maps
    // merged well already, like Polyanya's aurora-merged: 0.95).
    if (twin.ok() && twin->report.polygons_after * 3 <= twin->report.polygons_before * 2) {
      // What the exact search on it consults: dead ends, and the map's exact landmarks.
      auto own = std::make_shared<SearchTables>();
      own->dead_ends = DeadEndTable::Build(*twin->map);
      own->exact_landmarks = TwinLandmarkTable(map, tables.exact_landmarks, *twin->map);
      own->polygon_bases = twin->map->PolygonBases();
      twin->map = std::make_shared<const NavMap>(*twin->map, std::move(own));
      tables.exact_twin = std::make_shared<const PlanTwin>(*std::move(twin));
    }
  }
  return tables;
}

bool CanShareSearchTables(const NavMap& base, std::span<const Obstacle> obstacles) {
  const uint64_t present = base.digest().areas_present;
  // Reference costs are the map's costs capped at 1 (landmark_table.h).
  const auto reference = [&](int area) { return std::min(base.info().areas[area].cost, 1.0f); };
  float dearest = 0;  // the highest reference cost an area obstacle may cover
  for (int a = 0; a < kMaxAreas; ++a) {
    if ((present >> a) & 1) dearest = std::max(dearest, reference(a));
  }
  for (const Obstacle& o : obstacles) {
    if (o.effect != ObstacleEffect::kArea) continue;
    if (!((present >> o.area) & 1) || reference(o.area) < dearest) return false;
  }
  return true;
}

std::shared_ptr<const NavMap> WithSearchTables(std::shared_ptr<const NavMap> map,
                                               const SearchTables::Options& options,
                                               ExactLandmarkTable stored) {
  auto tables =
      std::make_shared<const SearchTables>(SearchTables::Build(*map, options, std::move(stored)));
  return std::make_shared<const NavMap>(*map, std::move(tables));
}

}  // namespace waymesh
