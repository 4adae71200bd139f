#pragma once
// The abstract half of a hierarchical path search: the cheapest route over a cluster graph's
// entrances (cluster_graph.h) from a start to a goal whose costs to the entrances of their own
// clusters the caller measured. A* with the caller's bound; reused between queries (a
// query object owns one): a warm query allocates nothing.

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "waymesh/core/hierarchy/cluster_graph.h"

namespace waymesh::internal {

// One leg of a route: a walk inside `cluster` from where the previous leg ended (the start, or
// the previous leg's entrance) to `entrance` (kToGoal: the goal).
struct RouteLeg {
  static constexpr uint32_t kToGoal = 0xFFFFFFFFu;
  uint32_t cluster;
  uint32_t entrance;
};

class AbstractRoute {
 public:
  // Where the search starts and ends: a cluster and the cost from the end point to each of the
  // cluster's entrances in slot order (INFINITY: not reachable inside the cluster).
  struct End {
    uint32_t cluster;
    std::span<const float> costs;
  };
  // Lower bounds of the cost from entrance e's anchor to the goal (the A* heuristic): `cheap`
  // is asked for every entrance reached, `sharp` (at least as large, dearer) only for those
  // about to be settled.
  struct Bounds {
    absl::FunctionRef<float(uint32_t)> cheap;
    absl::FunctionRef<float(uint32_t)> sharp;
  };
  // Finds the cheapest route from `start` to `goal`. False when none exists; then legs() is
  // empty.
  bool Find(const ClusterGraph& graph, End start, End goal, const Bounds& bounds);
  // The legs of the last route found, start first.
  const std::vector<RouteLeg>& legs() const { return legs_; }
  // Abstract nodes the last Find settled (for the benchmark's profile).
  uint32_t settled() const { return settled_; }

 private:
  static constexpr uint32_t kFromStart = 0xFFFFFFFFu;
  // Reached node `n` (an entrance, or the goal node) with cost `g` from `parent` through
  // `cluster`; `cheap` gives its bound to the goal when the node is new to this query.
  void Offer(uint32_t n, float g, uint32_t parent, uint32_t cluster,
             absl::FunctionRef<float(uint32_t)> cheap);
  // Whether popped node `n` may be settled now: when its bound was the cheap one, it gets the
  // sharp one and goes back to the heap if that raised its key.
  bool Sharpened(uint32_t n, absl::FunctionRef<float(uint32_t)> sharp);
  void Reset(uint32_t nodes);
  void TraceBack(uint32_t goal_node);

  uint32_t generation_ = 0;
  uint32_t settled_ = 0;
  std::vector<uint32_t> stamp_;  // per node: == generation_ when the rest is this query's
  std::vector<float> g_;
  std::vector<float> f_;
  std::vector<float> h_;
  std::vector<uint32_t> parent_;
  std::vector<uint32_t> via_;  // the cluster walked to reach the node
  std::vector<uint8_t> closed_;
  std::vector<uint8_t> sharp_;                    // per node: h_ is the sharp bound
  std::vector<std::pair<float, uint32_t>> heap_;  // min-heap of (f, node)
  std::vector<RouteLeg> legs_;
};

}  // namespace waymesh::internal
