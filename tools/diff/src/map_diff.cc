// DiffMaps: the measures of map_diff.h, each computed by its own concept file.

#include "waymesh/diff/map_diff.h"

#include <cmath>

#include "island_correspondence.h"
#include "polygon_shape_match.h"
#include "reachability_sample.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/diff/diff_tolerances.h"

namespace waymesh {

bool MapDiff::HasChanges() const {
  return !removed.empty() || !added.empty() || !area_changes.empty() ||
         std::fabs(new_walkable_area - old_walkable_area) >= tol::kDiffAreaChange ||
         old_islands != new_islands || old_links != new_links || !island_changes.empty() ||
         !flips.empty();
}

absl::StatusOr<MapDiff> DiffMaps(std::shared_ptr<const NavMap> old_map,
                                 std::shared_ptr<const NavMap> new_map,
                                 const MapDiffOptions& options) {
  if (!old_map || !new_map) return absl::InvalidArgumentError("DiffMaps: a map is missing");
  MapDiff diff;
  ShapeMatch shapes = MatchPolygonShapes(*old_map, *new_map, tol::kDiffCornerRounding);
  diff.removed = std::move(shapes.removed);
  diff.added = std::move(shapes.added);
  diff.area_changes = std::move(shapes.area_changes);
  diff.unchanged_polygons = shapes.unchanged;
  diff.old_walkable_area = old_map->info().walkable_area;
  diff.new_walkable_area = new_map->info().walkable_area;
  diff.old_islands = old_map->info().islands.size();
  diff.new_islands = new_map->info().islands.size();
  diff.old_links = old_map->info().off_mesh_link_count;
  diff.new_links = new_map->info().off_mesh_link_count;
  NavQuery old_query(old_map), new_query(new_map);
  diff.island_changes = CompareIslands(*old_map, new_query, shapes.pairs, options.island_samples);
  ReachabilitySample reach = CompareReachability(old_query, new_query, options);
  diff.pairs_sampled = reach.pairs;
  diff.flips = std::move(reach.flips);
  return diff;
}

}  // namespace waymesh
