#pragma once
// One path query's view of the cluster graph (cluster_graph.h): a lower bound of the cost from
// each entrance to the goal, found by a Dijkstra over the graph from the goal's cluster, and
// from it a lower bound of the cost to the goal from any point of another cluster (up to the
// funnel costs' own rounding), which A* takes as a sharper heuristic. Reused between queries
// (a query object owns one): a warm query allocates nothing.

#include <cstdint>
#include <utility>
#include <vector>

#include "waymesh/core/hierarchy/cluster_graph.h"
#include "waymesh/core/vec3.h"

namespace waymesh::internal {

class GoalDistances {
 public:
  // Sets up the estimates towards `goal` (a point of cluster `goal_cluster`) for a search that
  // starts in cluster `start_cluster`, with `scale` the cheapest cost per metre of the query's
  // filter. `plain[c]` != 0 marks clusters searched without the graph (carved by obstacles):
  // From is 0 there. The abstract search runs until the start cluster's entrances are settled
  // and a margin beyond (kMarginFactor); entrances it did not settle count as that far.
  void Prepare(const ClusterGraph& graph, const std::vector<uint8_t>& plain, uint32_t goal_cluster,
               uint32_t goal_component, Vec3 goal, uint32_t start_cluster, float scale);
  // An estimate of the cost from `pos`, on polygon `global` (the graph's numbering) of cluster
  // `c`, to the goal: the cheapest of straight distance to an entrance of the polygon's part of
  // the cluster plus that entrance's abstract cost; 0 in the goal's cluster and in plain
  // clusters (the search's own heuristic holds there).
  float From(uint32_t c, uint32_t global, Vec3 pos) const;
  // Entrances the last Prepare settled (for the benchmark's profile).
  uint32_t settled() const { return settled_; }

 private:
  static constexpr float kMarginFactor = 1.25f;
  // A flood's walk between two anchors can exceed the shortest by up to ~10 % (one funnel per
  // polygon; cluster_graph.cc keeps the cheaper direction): scaled by this it bounds from below.
  static constexpr float kFloodSlack = 0.9f;
  // The abstract cost of entrance `e` to the goal: settled, or at least the search's radius.
  float CostOf(uint32_t e) const {
    return stamp_[e] == generation_ && done_[e] != 0 ? cost_[e] : radius_;
  }
  void Offer(uint32_t e, float cost);

  const ClusterGraph* graph_ = nullptr;
  const std::vector<uint8_t>* plain_ = nullptr;
  uint32_t goal_cluster_ = 0;
  float scale_ = 1;
  float radius_ = 0;  // the abstract search's last settled cost: a bound for the rest
  uint32_t settled_ = 0;
  uint32_t generation_ = 0;
  std::vector<uint32_t> stamp_;  // per entrance: == generation_ when cost_ is this query's
  std::vector<float> cost_;
  std::vector<uint8_t> done_;                     // per entrance, valid with stamp_: settled
  std::vector<std::pair<float, uint32_t>> heap_;  // min-heap of (cost, entrance)
};

}  // namespace waymesh::internal
