#pragma once
// Ground truth for raycasts on single-floor maps: where a straight ray first crosses a wall
// edge (plan view), by brute force over every wall edge. Independent of both libraries.

#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/vec3.h"

namespace waymesh::bench {

class WallCrossing {
 public:
  // Collects the wall (boundary) edges of `map`.
  explicit WallCrossing(const NavMap& map);

  // Fraction of start -> end at which the ray first crosses the inside of a wall edge; 1 when
  // it crosses none. Touching a wall corner does not count (Polyanya's convention).
  float FirstCrossing(Vec3 start, Vec3 end) const;

 private:
  struct Segment {
    double ax, az, bx, bz;
  };
  std::vector<Segment> walls_;
};

}  // namespace waymesh::bench
