#pragma once
// The tables that speed up path searches on one map: landmark distances (a sharper A*
// heuristic, landmark_table.h) and dead ends (polygons a search may skip, dead_end_table.h).
// Building them runs path searches over the whole map, so it is an explicit step of loading a
// map (the loader, or the server before it pages a map out), never a side effect of a query;
// the result is attached to the map (NavMap's tables constructor) and shared read-only by
// every query object.
//
// Both tables are keyed by the map's polygons as loaded. A version of the map whose tiles an
// obstacle layer changed keeps them: each new polygon is looked up by the polygon it was cut
// from, which walls only make farther from everything (the landmark bounds stay lower bounds),
// and a search does not skip dead ends at polygons of changed tiles (an obstacle can split a
// dead end's entrance into two).

#include <cstddef>

#include "waymesh/core/dead_end_table.h"
#include "waymesh/core/landmark_table.h"
#include "waymesh/core/nav_map.h"

namespace waymesh {

struct SearchTables {
  LandmarkTable landmarks;
  DeadEndTable dead_ends;

  // Both tables for a resident map (O(landmarks * polygons log polygons)); empty tables on
  // maps too small to profit (LandmarkTable::kMinPolygons).
  static SearchTables Build(const NavMap& map);
  size_t bytes() const { return landmarks.bytes() + dead_ends.bytes(); }
};

// `map` with freshly built search tables attached (resident maps).
std::shared_ptr<const NavMap> WithSearchTables(std::shared_ptr<const NavMap> map);

}  // namespace waymesh
