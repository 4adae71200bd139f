#pragma once
// Walking round a vertex: the polygons that share a corner, one edge at a time. Refinement
// swaps a corridor's run of polygons round a vertex for the run on its other side, the funnel
// asks whether a portal end touches a wall, and a ray whose line runs through a corner goes
// round it; all three step the same way.

#include <cstdint>
#include <optional>

#include "query_context.h"

namespace waymesh::internal {

// Polygons round one vertex are few; this only stops a walk on corrupt adjacency.
constexpr int kMaxFanSteps = 64;

// A polygon round vertex v and v's corner index in it.
struct FanPoly {
  PolyIndex at;
  uint32_t corner;
  // The corner index i of the edge (i, i + 1) of the previous polygon crossed to get here.
  uint32_t entered_by = 0;
};

// Which of the two edges at the vertex a step crosses.
enum class FanTurn {
  kLeaving,   // the edge from the vertex to the next corner (counter-clockwise round v)
  kArriving,  // the edge from the previous corner to the vertex (clockwise)
};

// The polygon across one of the two edges of p.at that meet at its corner p.corner (vertex v).
// Empty at a wall, at a polygon that cannot be loaded or that `filter` rejects, and where the
// polygon across lacks v (adjacency without the shared corner: corrupt data).
std::optional<FanPoly> StepRoundVertex(const QueryContext& ctx, const QueryFilter& filter,
                                       const FanPoly& p, Vec3 v, FanTurn turn);

}  // namespace waymesh::internal
