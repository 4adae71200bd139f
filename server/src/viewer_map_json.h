#pragma once
// How the viewer's JSON API describes a map for drawing (viewer_api.h). Coordinates are metres
// in the map's frame rounded to millimetres; polygon references are decimal strings (64 bits do
// not fit a JavaScript number).

#include "nlohmann/json.hpp"
#include "waymesh/core/nav_map.h"
#include "waymesh/server/map_registry.h"

namespace waymesh::server {

// One line of the map list: id, map and agent type, version, counts and bounds.
nlohmann::json MapSummaryJson(const ServedMap& map);
// What the page needs before any tile: summary, grid, areas, islands and per-tile bounds.
nlohmann::json MapDetailJson(const ServedMap& map);
// Tile `tile` of `map`: each polygon's reference, area, island, XZ outline and height range;
// its off-mesh links.
nlohmann::json TileJson(const NavMap& map, const TileView& tile);

}  // namespace waymesh::server
