#pragma once
// A repair of each landmark flood before it is stored (exact_landmark_table.cc): the flood
// records a vertex only where a successor interval ends on it, and on the demo town a few
// vertices (float twins a few ulps from another corner) were recorded from a longer route
// only, about 30 m above their geodesic distance. A stored value above the true distance
// makes the landmark bound overestimate (an inadmissible heuristic). Two corners of one convex
// polygon see each other, so d(v) <= d(w) + |v w| holds for the true distances: closing every
// row under that rule (and seam copies under equality) only lowers values to lengths of real
// paths, never below the geodesic distance.

#include <cstdint>
#include <vector>

#include "exact/exact_search.h"
#include "waymesh/core/nav_map.h"

namespace waymesh::internal::exact {

// The corner graph of a resident map (corners sharing a polygon; copies of one position at tile
// seams), built once for all the floods of a table.
class LandmarkRowRelaxer {
 public:
  explicit LandmarkRowRelaxer(const NavMap& map);

  // Gives every copy of a seam vertex the least distance of its copies (a flood leaves a copy
  // unreached in the tile whose polygons no cone entered near it), then lowers each finite
  // distance in `d` (per tile, per vertex of the map) to the least d(w) + |v w| over the
  // corners w sharing a polygon with v, repeatedly (a Dijkstra over the corner graph), with
  // seam copies kept equal; vertices no copy of which was reached stay infinite.
  void Relax(VertexDistances* d) const;

 private:
  // A vertex of the map: tile and index in it.
  struct MapVertex {
    uint32_t tile = 0, vertex = 0;
  };
  // CSR lists per vertex: vertex v of tile t owns [start[t][v], start[t][v + 1]) of items[t].
  template <typename T>
  struct PerVertex {
    std::vector<std::vector<uint32_t>> start;
    std::vector<std::vector<T>> items;
  };

  // Sets every copy in each seam group to the group's least distance.
  void MergeSeamCopies(VertexDistances* d) const;

  static constexpr uint32_t kNoSeam = ~0u;

  const NavMap& map_;
  PerVertex<uint32_t> polygons_;  // the polygons each vertex is a corner of
  // Copies of one position at tile seams, group by group (groups of two or more only).
  std::vector<MapVertex> seam_members_;
  std::vector<uint32_t> seam_start_{0};            // groups + 1 offsets into seam_members_
  std::vector<std::vector<uint32_t>> seam_group_;  // per tile and vertex: its group, or kNoSeam
};

}  // namespace waymesh::internal::exact
