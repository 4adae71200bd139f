#pragma once
// MoveAlongSurface's result: where a mover really ends up sliding along walls.

#include <vector>

#include "waymesh/core/poly_ref.h"
#include "waymesh/core/query_status.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

// Reused between queries: `visited` keeps its capacity.
struct MoveResult {
  QueryStatus status = QueryStatus::kStartOffMesh;  // kComplete, kPartial or kStartOffMesh
  Vec3 pos;                                         // reached position, on the surface
  PolyRef poly;                                     // polygon of `pos`
  bool blocked = false;  // `pos` differs from the target in plan view (a wall was in the way)
  std::vector<PolyRef> visited;  // polygons from the start polygon to `poly`, in order
};

}  // namespace waymesh
