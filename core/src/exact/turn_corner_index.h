#pragma once
// The turn corners of a resident map under one filter (turn_corner.h), numbered 0..n-1: the
// nodes of the corner graph (corner_graph.h) and of the hub labels built over it. A corner is
// a position: the copies of a vertex at tile seams share one id (as the root table keys roots
// by position), while stacked floors, at other heights, do not.

#include <cstdint>
#include <vector>

#include "exact/exact_buffers.h"
#include "query_context.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal::exact {

class TurnCornerIndex {
 public:
  // Numbers every vertex of ctx's resident map at which some polygon the filter accepts has a
  // turn corner, in tile, polygon and corner order (deterministic). Empty on a paged map.
  static TurnCornerIndex Build(QueryContext& ctx, const QueryFilter& filter);

  uint32_t size() const { return uint32_t(corners_.size()); }
  Vec3 position(uint32_t id) const { return corners_[id].pos; }
  // The corner as a point on a polygon it is a turn corner of: where a search from it starts.
  SurfacePoint point(uint32_t id) const { return corners_[id]; }
  // The id of vertex `vertex` of tile `tile`, or kNone when it is no turn corner.
  uint32_t IdAt(uint32_t tile, uint32_t vertex) const { return ids_[tile][vertex]; }

 private:
  std::vector<SurfacePoint> corners_;
  std::vector<std::vector<uint32_t>> ids_;  // per tile, per vertex
};

}  // namespace waymesh::internal::exact
