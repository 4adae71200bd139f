#pragma once
// FindDistanceToWall's result: the wall closest to a point among the polygons reachable from it
// within a search radius (Detour's findDistanceToWall, Unity's NavMesh.FindClosestEdge).

#include "waymesh/core/poly_ref.h"
#include "waymesh/core/query_status.h"
#include "waymesh/core/surface_point.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

struct WallDistance {
  QueryStatus status = QueryStatus::kStartOffMesh;  // kComplete or kStartOffMesh
  SurfacePoint center;  // the query point on the surface (its polygon: where the search began)
  bool found = false;   // a wall lies within the search radius
  float distance = 0;   // plan-view distance to the wall; the search radius when none was found
  Vec3 hit_point;       // closest point of the wall, at surface height; the centre when not found
  // Horizontal unit vector from the wall towards the centre (the wall's inward normal when the
  // centre is on it); zero when not found.
  Vec3 hit_normal;
  PolyRef wall_poly;  // polygon whose edge is the wall; invalid when not found
  // The node pool (NavQueryOptions::max_nodes) ran out before every polygon within the radius
  // was examined: `distance` is then an upper bound.
  bool node_limit = false;
};

}  // namespace waymesh
