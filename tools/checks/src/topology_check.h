#pragma once
// Topology of a loaded map from its tile arrays, the way the queries see it (what makes a map
// worse rather than unsafe; neighbour links and convexity are structure: map_structure.h):
//  - open seam: an edge marked wall whose exact reverse (same two vertex positions) is an edge
//    of another polygon, in the same or another tile: the polygons touch but are not linked;
//  - non-manifold: more than two polygon edges on one position pair, or two polygons on the
//    same side of an edge.

#include <vector>

#include "waymesh/checks/map_checks.h"
#include "waymesh/core/nav_map.h"

namespace waymesh {

// Every open seam and non-manifold edge.
std::vector<MapFinding> CheckTopology(const NavMap& map);

}  // namespace waymesh
