#pragma once
// Splicing untouched polygons into a carved tile. A polygon that is not cut, has no cut
// neighbour (in its tile or across a seam) and gets no T-junction point is, in the carved tile,
// its base polygon with its neighbours renumbered: same corners, detail triangles, area id and
// flags. Carving copies such a polygon from the base tile instead of building it as corners and
// matching its edges, so a rebuilt tile costs in proportion to what its cuts reach.

#include <cstdint>
#include <vector>

#include "absl/functional/function_ref.h"
#include "carve_pieces.h"
#include "tile_assembly.h"
#include "waymesh/core/nav_map.h"

namespace waymesh::obstacles {

// The T-junction points on a tile's edge lines, with the plan bounds of the base edges they
// lie on: most edges of a tile are outside them and need no look-up.
class EdgeLinePoints {
 public:
  explicit EdgeLinePoints(const PointsOnLine& points);
  // Whether some point lies on the line of base edge a-b (not necessarily inside the edge).
  bool OnLineOf(Vec3 a, Vec3 b) const;

 private:
  bool Inside(Vec3 v) const { return v.x >= x0_ && v.x <= x1_ && v.z >= z0_ && v.z <= z1_; }
  const PointsOnLine& points_;
  float x0_, x1_, z0_, z1_;  // empty (x0_ > x1_) when no base edge line has points
};

// Whether base polygon `poly` of `tile` is spliced in the version whose tiles number their
// polygons as `numbering_of` says (nullptr: nothing cut; `own` is the tile's own, asked once
// per tile rather than per polygon) and whose T-junction points on the tile's edge lines are
// `points`.
bool SplicesUntouched(const TileView& tile, uint32_t poly, const EdgeLinePoints& points,
                      const TileNumbering* own,
                      absl::FunctionRef<const TileNumbering*(uint32_t)> numbering_of);

// The corners of untouched base polygon `poly`, each naming the base edge it starts.
std::vector<PieceCorner> BaseCorners(const TileView& tile, uint32_t poly);

}  // namespace waymesh::obstacles
