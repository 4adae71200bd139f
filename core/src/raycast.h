#pragma once
// Raycast along the surface: walks the polygons a plan-view segment crosses through their
// adjacency (so stacked floors never mix) until a wall or a rejected polygon stops it.

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>

#include "query_context.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/raycast_result.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal {

// `start` must be on an existing polygon; `end` finite. Always sets out->status = kComplete.
void RaycastAlongSurface(const QueryContext& ctx, const SurfacePoint& start, Vec3 end,
                         const QueryFilter& filter, RaycastResult* out);

// Where the plan-view ray start + s * d (s >= 0) leaves convex polygon `poly` (RayExit).
struct PolyExit {
  float s = INFINITY;  // the smallest exit parameter; +inf when the ray never leaves (d = 0)
  int edge = -1;       // corner index i of the crossed edge i -> i + 1; -1 if it never leaves
  // When the ray leaves exactly through an end of that edge (its line runs through the
  // corner, as often on integer coordinates): that corner's index; else -1.
  int corner = -1;
};
PolyExit RayExit(const TileView& tile, uint32_t poly, Vec3 start, Vec3 d);

// The polygons a ray passes into when it leaves a polygon through one of its corners: from
// that polygon around the corner, edge by edge (never through a wall or a polygon the filter
// rejects), either way round, up to the first polygon whose angle at the corner holds the
// ray's direction. Empty (count 0) when the ray runs into a wall at the corner.
struct CornerPivot {
  static constexpr int kMaxSteps = 16;  // polygons around one vertex are few
  struct Step {
    PolyIndex poly;
    int edge;  // corner index of the previous polygon's edge it was entered through
  };
  std::array<Step, kMaxSteps> steps;
  int count = 0;
};
CornerPivot PivotAtCorner(const QueryContext& ctx, const QueryFilter& filter, PolyIndex from,
                          uint32_t corner, Vec3 d);

// How a walk along a plan-view segment ended, in the last polygon it reached.
struct RayWalkEnd {
  enum Kind { kReachedEnd, kBlocked, kStopped } kind;
  PolyIndex last;  // the polygon holding the end point, or the one the walk stopped in
  float t;         // fraction of the segment walked (1 for kReachedEnd)
  int edge;        // kBlocked: corner index of the wall (or rejected neighbour's) edge of `last`
};

// Walks the segment start.pos -> end (plan view) from start.poly through the polygons it
// crosses. `enter(poly, edge)` is called for each polygon entered, the start polygon
// first with edge -1, then each next one with the corner index of the previous polygon's edge
// it was entered through; returning false stops the walk there (kStopped).
template <typename Enter>
RayWalkEnd WalkRay(const QueryContext& ctx, const SurfacePoint& start, Vec3 end,
                   const QueryFilter& filter, Enter&& enter) {
  const Vec3 s = start.pos;
  const Vec3 d{end.x - s.x, 0.0f, end.z - s.z};
  PolyIndex at = start.poly.index();
  if (!enter(at, -1)) return {RayWalkEnd::kStopped, at, 0.0f, -1};
  float t_in = 0;
  float pivot_t = -1;  // where the walk last went round a corner
  // Each step enters a new polygon further along the ray; the bound only stops corrupt data.
  const uint64_t max_steps = uint64_t(ctx.tile_base.back()) + 1;
  for (uint64_t step = 0; step < max_steps; ++step) {
    const TileView& t = ctx.Tile(at.tile);
    const PolyExit leave = RayExit(t, at.poly, s, d);
    const int edge = leave.edge;
    const float exit = std::max(leave.s, t_in);
    if (exit >= 1.0f || edge < 0) return {RayWalkEnd::kReachedEnd, at, 1.0f, -1};
    if (const int corner = leave.corner; corner >= 0) {
      // Through a corner: on in the polygon around it that the ray enters. Going round the
      // same corner again without getting anywhere means the pivot found only rounding.
      const CornerPivot pivot =
          exit == pivot_t ? CornerPivot{} : PivotAtCorner(ctx, filter, at, uint32_t(corner), d);
      if (pivot.count == 0) return {RayWalkEnd::kBlocked, at, exit, edge};
      for (int i = 0; i < pivot.count; ++i) {
        const CornerPivot::Step& p = pivot.steps[i];
        if (!enter(p.poly, p.edge)) {
          return {RayWalkEnd::kStopped, p.poly, exit, -1};
        }
      }
      at = pivot.steps[pivot.count - 1].poly;
      pivot_t = exit;
    } else {
      const std::optional<PolyIndex> nb = t.across(t.poly_start[at.poly] + uint32_t(edge));
      if (!nb || !ctx.Exists(*nb) || !ctx.Passes(filter, *nb)) {
        return {RayWalkEnd::kBlocked, at, exit, edge};
      }
      if (!enter(*nb, edge)) return {RayWalkEnd::kStopped, *nb, exit, -1};
      at = *nb;
    }
    t_in = exit;
  }
  // Unreachable on a valid map; report a stop where we are rather than loop.
  return {RayWalkEnd::kStopped, at, t_in, -1};
}

}  // namespace waymesh::internal
