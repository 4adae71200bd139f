#pragma once
// A point on the walkable surface and the polygon it lies on.

#include "waymesh/core/poly_ref.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

struct SurfacePoint {
  PolyRef poly;  // polygon containing `pos` in plan view
  Vec3 pos;      // on the surface: height from the polygon's detail triangles
};

}  // namespace waymesh
