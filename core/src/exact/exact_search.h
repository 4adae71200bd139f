#pragma once
// The interval search of exact mode (see waymesh/core/exact_path.h): best-first over nodes
// (root, interval of an edge) with the admissible root-interval-goal distance as heuristic,
// successors by projecting the interval through the next polygon, turns only at wall corners,
// a node pruned when its root was since reached more cheaply, and a successor joined into the
// open node of its root on the same edge when their intervals abut (on fine ground a root's
// cone is cut at every vertex, and the pieces meet again on the edges further on).

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "query_context.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/query_interrupt.h"
#include "waymesh/core/query_status.h"
#include "waymesh/core/surface_point.h"

namespace waymesh::internal::exact {

struct ExactOutcome {
  // kComplete: `last` is the final node of a shortest path. kPartial: `last` is the best
  // final node found before the node limit, or (none found) the node closest to the goal.
  // kNoPath: nothing reaches the goal.
  QueryStatus status = QueryStatus::kNoPath;
  uint32_t last = kNone;
  uint32_t expanded = 0;
  bool limit_hit = false;
  absl::Status stop;  // the interrupt's status when it stopped the search
};

// How a search under a filter takes off-mesh links.
struct LinkTerms {
  bool links = false;    // the filter allows the area of some link on the map
  double walk_cost = 1;  // cost per metre of every allowed area (one: CheckExactPathSupport)
  // Factor of the heuristic: below 1 when an allowed link may cost less than its plan span
  // (then the straight line to the goal could overestimate); 1 otherwise.
  double h_scale = 1;
};
LinkTerms LinkTermsOf(const NavMap& map, const QueryFilter& filter);

// A root for reaching `target` in node's polygon from node's interval: the node's root when
// it sees the target, else a new root (not a corner of the mesh, kept out of the root table)
// at the interval end the path turns round.
uint32_t TurnRoot(const QueryContext& ctx, ExactBuffers* b, const IntervalNode& node,
                  Point2 target);

// Searches from `start` to `goal` (both on polygons the filter accepts) in ctx.exact, creating
// at most `max_nodes` nodes and polling `interrupt` (may be null).
ExactOutcome SearchExact(QueryContext& ctx, const SurfacePoint& start, const SurfacePoint& goal,
                         const QueryFilter& filter, uint32_t max_nodes, QueryInterrupt* interrupt);

// Per tile, per vertex: a distance in metres (plan view).
using VertexDistances = std::vector<std::vector<double>>;

// The exact (plan-view, Euclidean geodesic) distance from `from` to every vertex of a resident
// map under `filter`, off-mesh links at their plan span; INFINITY where unreached. A copy of a
// vertex at a tile seam may stay unreached where its other copy is not (callers merge them).
void FloodExact(QueryContext& ctx, const SurfacePoint& from, const QueryFilter& filter,
                VertexDistances* out);

}  // namespace waymesh::internal::exact
