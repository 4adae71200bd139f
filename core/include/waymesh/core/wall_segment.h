#pragma once
// A wall edge near a point: where walking stops (the navmesh boundary, or an edge to a polygon
// the query filter rejects). The crowd keeps agents off them; distance-to-wall queries read
// them.

#include "waymesh/core/vec3.h"

namespace waymesh {

// Edge a -> b of a walkable polygon, oriented with the map's winding: the walkable side is the
// one where TriArea2XZ(a, b, p) > 0.
struct WallSegment {
  Vec3 a;
  Vec3 b;
};

}  // namespace waymesh
