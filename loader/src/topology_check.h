#pragma once
// Topology of a loaded map from its tile arrays, the way the queries see it:
//  - open seam: an edge marked wall whose exact reverse (same two vertex positions) is an edge
//    of another polygon, in the same or another tile: the polygons touch but are not linked;
//  - non-manifold: more than two polygon edges on one position pair, two polygons on the same
//    side of an edge, or neighbour links that are not mirrored by the neighbour across the
//    same edge;
//  - non-convex: a corner that turns against the map winding (Area2XZ < tol::kConvexity, or a
//    straight corner that doubles back).

#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/loader/map_finding.h"

namespace waymesh {

// Every open seam, non-manifold edge, asymmetric neighbour link and non-convex polygon.
std::vector<MapFinding> CheckTopology(const NavMap& map);

}  // namespace waymesh
