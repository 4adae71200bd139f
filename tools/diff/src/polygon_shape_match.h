#pragma once
// Pairs the polygons of two maps by shape: corner positions rounded to a grid, starting at the
// smallest corner (winding is the map's, so the corner cycle identifies the polygon).

#include <cstdint>
#include <utility>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/poly_ref.h"
#include "waymesh/diff/map_diff.h"

namespace waymesh {

// The polygons of two maps sorted into matched, removed and added.
struct ShapeMatch {
  std::vector<DiffPolygon> removed;  // in the old map only
  std::vector<DiffPolygon> added;    // in the new map only
  std::vector<AreaIdChange> area_changes;
  uint64_t unchanged = 0;  // same shape, same area id
  // Every matched pair (same shape, any area id): old polygon -> new polygon.
  std::vector<std::pair<PolyIndex, PolyIndex>> pairs;
};

// Matches every polygon of `old_map` with at most one of `new_map` of the same rounded shape
// (`rounding` in metres, > 0). Output lists are in shape order, so deterministic.
ShapeMatch MatchPolygonShapes(const NavMap& old_map, const NavMap& new_map, float rounding);

}  // namespace waymesh
