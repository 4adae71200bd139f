#pragma once
// One tile's polygons as plan-view triangles, thinned for the exact search's twin
// (plan_twin.h): a vertex inside a region of one area and flag set, where every edge around it
// joins two triangles of that region, decides nothing in plan view (a shortest path only
// bends at wall corners), so it is removed and its fan re-triangulated from the ring around
// it. What is left is a triangulation of the same plan area whose vertices all lie on the
// region outlines, walls or tile seams.

#include <array>
#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "waymesh/core/nav_map.h"

namespace waymesh::twin {

struct PlanTriangle {
  uint32_t v[3];    // tile vertex ids, map winding
  uint32_t group;   // index into PlanTriangles::groups: the area id and flags
  uint32_t island;  // of the polygons it was cut from
  // The tile's polygons it shares plan area with (sorted): its source polygon, or for a
  // triangle of a re-triangulated fan those of the fan's triangles it overlaps.
  std::vector<uint32_t> sources;
  bool alive = true;
};

class PlanTriangles {
 public:
  // Fans every polygon of `tile` into triangles (from a corner whose fan has no sliver).
  explicit PlanTriangles(const TileView& tile);

  // Removes every vertex whose fan lies inside one region (see above) and whose ring can be
  // cut into ears; returns how many were removed.
  uint32_t RemoveInnerVertices();

  const std::vector<PlanTriangle>& triangles() const { return tris_; }
  // The triangle holding directed edge (a, b), or kNoTriangle.
  uint32_t TriangleOf(uint32_t a, uint32_t b) const;
  static constexpr uint32_t kNoTriangle = 0xFFFFFFFFu;

  struct Group {
    uint8_t area;
    uint16_t flags;
  };
  const std::vector<Group>& groups() const { return groups_; }

 private:
  // The corner of polygon p whose fan has no triangle thinner than an ear may be. A convex
  // polygon's straight corners (T-junction splits) make slivers of the fans from the corners
  // on their line, and a sliver merged into a face leaves it a spike the map's rules refuse.
  uint32_t FanApex(uint32_t p) const;
  void Add(PlanTriangle t);
  void Kill(uint32_t t);
  // The ring round vertex v in map winding when v's fan is one closed region fan.
  bool RingAround(uint32_t v, std::vector<uint32_t>* ring) const;
  // The sources of the fan's triangles that ear `e` overlaps.
  std::vector<uint32_t> EarSources(const std::array<uint32_t, 3>& e,
                                   const std::vector<uint32_t>& fan) const;
  // Cuts `ring` (a simple polygon in map winding) into ears; false when stuck.
  bool Ears(std::vector<uint32_t> ring, std::vector<std::array<uint32_t, 3>>* out) const;

  const TileView& tile_;
  std::vector<PlanTriangle> tris_;
  std::vector<Group> groups_;
  absl::flat_hash_map<uint64_t, uint32_t> edge_tri_;  // directed edge -> live triangle
  std::vector<std::vector<uint32_t>> at_vertex_;      // live triangles touching each vertex
};

}  // namespace waymesh::twin
