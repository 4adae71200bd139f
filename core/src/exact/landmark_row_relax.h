#pragma once
// A repair of one landmark flood before it is stored (exact_landmark_table.cc): the flood
// records a vertex only where a successor interval ends on it, and on the demo town a few
// vertices (float twins a few ulps from another corner) were recorded from a longer route
// only, up to 32 m above their geodesic distance. A stored value above the true distance
// makes the landmark bound overestimate (an inadmissible heuristic). Two corners of one convex
// polygon see each other, so d(v) <= d(w) + |v w| holds for the true distances: closing every
// row under that rule (and seam copies under equality) only lowers values to lengths of real
// paths, never below the geodesic distance.

#include "exact/exact_search.h"
#include "waymesh/core/nav_map.h"

namespace waymesh::internal::exact {

// Lowers each finite distance in `d` (per tile, per vertex of the resident `map`) to the least
// d(w) + |v w| over the corners w sharing a polygon with v, repeatedly (a Dijkstra over the
// corner graph), with copies of one position at tile seams kept equal; infinite ones stay.
void RelaxThroughPolygons(const NavMap& map, VertexDistances* d);

}  // namespace waymesh::internal::exact
