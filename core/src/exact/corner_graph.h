#pragma once
// The visibility graph of a map's turn corners (turn_corner_index.h): an undirected edge
// a-b of length |a b| where a shortest path may run straight from corner a to corner b.
// With the corners a point sees (VisibleCorners), the distance between two points is
//   min(|s t| if t is seen from s, min over a seen from s, b seen from t of
//       |s a| + d_graph(a, b) + |b t|),
// the graph the hub labels of exact mode are built over (Euclidean hub labelling, Du et al.
// 2023, with the visibility part computed online).

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "exact/sight_flood.h"
#include "exact/turn_corner_index.h"
#include "query_context.h"
#include "waymesh/core/query_filter.h"

namespace waymesh::internal::exact {

// Which corner pairs seen from each other become edges. VisibleCorners(a) lists b only when
// a path from a can bend round b (the surface extends past the line a-b beyond b): b is seen
// from a "tautly at b".
enum class CornerEdgeRule {
  // b in VisibleCorners(a) or a in VisibleCorners(b): exact (corner_graph_test).
  kSeenFromEither,
  // b in VisibleCorners(a) and a in VisibleCorners(b), taut at both ends. Not exact: where
  // corners lie on one line (p, a, b), the search from b sees p past a, while the one from p
  // turns at a (a turn of zero angle) and stops there, so p-b and a-b are each seen from one
  // side only and both drop out; on aurora-merged 58 of 400 random pairs came out longer.
  // Kept to measure what the rule would save.
  kTautBothEnds,
};

// An undirected edge, a < b.
struct CornerEdge {
  uint32_t a = 0, b = 0;
  double length = 0;
};

// A neighbour of a corner in the graph's adjacency lists.
struct CornerNeighbour {
  uint32_t corner = 0;
  double length = 0;
};

class CornerGraph {
 public:
  // Seeds VisibleCorners at every corner of `index` (built under `filter` on ctx's map).
  static CornerGraph Build(QueryContext& ctx, const QueryFilter& filter,
                           const TurnCornerIndex& index,
                           CornerEdgeRule rule = CornerEdgeRule::kSeenFromEither);

  uint32_t corner_count() const { return uint32_t(start_.size() - 1); }
  // Every edge once, ordered by (a, b).
  const std::vector<CornerEdge>& edges() const { return edges_; }
  // The corners joined to `corner`, by id.
  std::span<const CornerNeighbour> Neighbours(uint32_t corner) const {
    return {neighbours_.data() + start_[corner], neighbours_.data() + start_[corner + 1]};
  }
  // Bytes of the edge list (the form a stored graph would keep).
  size_t edge_bytes() const { return edges_.size() * sizeof(CornerEdge); }

 private:
  std::vector<CornerEdge> edges_;
  std::vector<uint32_t> start_{0};  // CSR: corner c owns [start_[c], start_[c + 1])
  std::vector<CornerNeighbour> neighbours_;
};

}  // namespace waymesh::internal::exact
