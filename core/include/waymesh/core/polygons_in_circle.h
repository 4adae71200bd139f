#pragma once
// FindPolygonsInCircle's result: the polygons reachable from a point without leaving a circle
// around it, cheapest first (Detour's findPolysAroundCircle).

#include <cstdint>
#include <vector>

#include "waymesh/core/poly_ref.h"
#include "waymesh/core/query_status.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

struct PolygonInCircle {
  PolyRef poly;
  PolyRef parent;  // the polygon it was entered from; invalid for the centre's polygon
  // Cost from the centre: the distances between the entry points of the polygons on the way
  // (the centre, then portal midpoints) times the area cost of the polygon walked.
  float cost = 0;
  uint8_t area = 0;  // area id (0..63)
  Vec3 centroid;     // plan-view area centroid, at surface height
};

// Reused between queries: `polygons` keeps its capacity.
struct PolygonsInCircle {
  QueryStatus status = QueryStatus::kStartOffMesh;  // kComplete or kStartOffMesh
  std::vector<PolygonInCircle> polygons;            // by cost; the first is the centre's polygon
  // max_polygons (or the node pool, NavQueryOptions::max_nodes) stopped the search while
  // reachable polygons were left.
  bool truncated = false;
};

}  // namespace waymesh
