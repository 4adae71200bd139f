#include "waymesh/core/search_tables.h"

#include <algorithm>
#include <memory>
#include <utility>

namespace waymesh {

SearchTables SearchTables::Build(const NavMap& map) {
  SearchTables tables;
  tables.landmarks = LandmarkTable::Build(map);
  tables.dead_ends = DeadEndTable::Build(map);
  tables.polygon_bases = map.PolygonBases();
  return tables;
}

bool CanShareSearchTables(const NavMap& base, const NavMap& carved) {
  if (carved.paged() || base.tile_count() != carved.tile_count()) return false;
  const uint64_t base_areas = base.digest().areas_present;
  if ((carved.digest().areas_present & ~base_areas) != 0) return false;
  // Reference costs are the map's costs capped at 1 (landmark_table.h): a piece whose area
  // costs less than 1 while its origin's area costs more would be cheaper than the bounds.
  const auto reference = [&](uint8_t area) { return std::min(base.info().areas[area].cost, 1.0f); };
  for (const TileView& tile : carved.tiles()) {
    if (tile.poly_origin.empty()) continue;
    const TileView& origin_tile = base.tile(tile.index);
    for (uint32_t p = 0; p < tile.poly_count(); ++p) {
      const uint8_t area = tile.poly_area[p];
      const uint8_t was = origin_tile.poly_area[tile.poly_origin[p]];
      if (area != was && reference(area) < reference(was)) return false;
    }
  }
  return true;
}

std::shared_ptr<const NavMap> WithSearchTables(std::shared_ptr<const NavMap> map) {
  auto tables = std::make_shared<const SearchTables>(SearchTables::Build(*map));
  return std::make_shared<const NavMap>(*map, std::move(tables));
}

}  // namespace waymesh
