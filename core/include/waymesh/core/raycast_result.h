#pragma once
// Raycast's result: whether a wall stops a straight walk along the surface, and where.

#include <vector>

#include "waymesh/core/poly_ref.h"
#include "waymesh/core/query_status.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

// Reused between queries: `polys` keeps its capacity.
struct RaycastResult {
  QueryStatus status = QueryStatus::kStartOffMesh;  // kComplete or kStartOffMesh
  bool hit = false;            // a wall (or a polygon the filter rejects) stops the ray
  float t = 1.0f;              // fraction of start->end (plan view) reached; 1 when not hit
  Vec3 hit_point;              // on the surface; the end point when not hit
  Vec3 normal;                 // horizontal unit normal of the wall hit, pointing back to the start
  std::vector<PolyRef> polys;  // polygons crossed, in order, starting with the start polygon
};

}  // namespace waymesh
