#pragma once
// The geometric kernel of one obstacle add, timed alone: the footprint, the cut of every
// polygon it may reach (obstacles::CutPolygon) and the merge of each cut polygon's pieces
// (obstacles::MergePieces), on the base map. Any carving design does this much for an add,
// however it then builds tiles and publishes versions, so its time bounds an update's cost from
// below: it tells whether a target can be met by restructuring what follows the cut.

#include <cstdint>
#include <memory>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/obstacles/obstacle.h"

namespace waymesh::bench {

class CarvingKernel {
 public:
  explicit CarvingKernel(std::shared_ptr<const NavMap> map);

  struct Run {
    double ms = 0;         // footprint, cuts and merges
    int polygons_cut = 0;  // polygons the footprint reached
  };
  // Carves `obstacle` into the base polygons alone. Which polygons' plan bounds the footprint's
  // overlap is found before the clock starts (a lower bound: a design must find them too).
  Run TimeAdd(const Obstacle& obstacle) const;

 private:
  struct PolygonRef {
    uint32_t tile, poly;
    float x0, x1, z0, z1;  // plan bounds
  };
  std::shared_ptr<const NavMap> map_;
  std::vector<PolygonRef> polygons_;
};

}  // namespace waymesh::bench
