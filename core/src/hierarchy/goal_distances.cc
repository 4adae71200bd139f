#include "hierarchy/goal_distances.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace waymesh::internal {

void GoalDistances::Offer(uint32_t e, float cost) {
  if (stamp_[e] != generation_) {
    stamp_[e] = generation_;
    done_[e] = 0;
  } else if (done_[e] != 0 || !(cost < cost_[e])) {
    return;
  }
  cost_[e] = cost;
  heap_.emplace_back(cost, e);
  std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
}

void GoalDistances::Prepare(const ClusterGraph& graph, const std::vector<uint8_t>& plain,
                            uint32_t goal_cluster, uint32_t goal_component, Vec3 goal,
                            uint32_t start_cluster, float scale) {
  graph_ = &graph;
  plain_ = &plain;
  goal_cluster_ = goal_cluster;
  scale_ = scale;
  settled_ = 0;
  if (stamp_.size() != graph.entrance_count()) {
    stamp_.assign(graph.entrance_count(), 0);
    cost_.assign(graph.entrance_count(), INFINITY);
    done_.assign(graph.entrance_count(), 0);
    generation_ = 0;
  }
  if (++generation_ == 0) {  // wrapped: forget every stamp
    std::fill(stamp_.begin(), stamp_.end(), 0);
    generation_ = 1;
  }
  heap_.clear();
  const float dearest = graph.dearest_rate();
  // Inside the goal's cluster the straight distance stands in for the walk to each entrance.
  for (const uint32_t e : graph.EntrancesOf(goal_cluster)) {
    const ClusterGraph::Entrance& in = graph.entrance(e);
    if (in.component[in.cluster[0] == goal_cluster ? 0 : 1] != goal_component) continue;
    Offer(e, std::max(0.0f, Distance(goal, in.anchor) - in.radius) * scale_);
  }
  uint32_t start_left = uint32_t(graph.EntrancesOf(start_cluster).size());
  float stop_at = INFINITY;
  radius_ = 0;
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    const auto [cost, e] = heap_.back();
    heap_.pop_back();
    if (done_[e] != 0 || cost != cost_[e]) continue;
    if (cost > stop_at) break;
    done_[e] = 1;
    ++settled_;
    radius_ = cost;
    const ClusterGraph::Entrance& in = graph.entrance(e);
    for (int side = 0; side < 2; ++side) {
      const uint32_t c = in.cluster[side];
      if (c == start_cluster && --start_left == 0) stop_at = cost * kMarginFactor;
      const auto members = graph.EntrancesOf(c);
      const auto costs = graph.CostsFrom(c, in.slot[side]);
      for (uint32_t k = 0; k < members.size(); ++k) {
        if (!std::isfinite(costs[k])) continue;
        // From anywhere on one stretch to anywhere on the other: the anchors' walk less the
        // walks along the stretches to their anchors (a lower bound, so paths stay short).
        const float along = (in.radius + graph.entrance(members[k]).radius) * dearest;
        Offer(members[k], cost + std::max(0.0f, costs[k] * kFloodSlack - along));
      }
    }
  }
  // An entrance left in the open list or never reached costs at least the last settled cost
  // (CostOf); unreached ones (other islands) too: the polygon search never gets there.
}

float GoalDistances::From(uint32_t c, uint32_t global, Vec3 pos) const {
  if (c == goal_cluster_ || (*plain_)[c] != 0) return 0.0f;
  const uint32_t part = graph_->ComponentOf(global);
  float best = INFINITY;
  for (const uint32_t e : graph_->EntrancesOf(c)) {
    const ClusterGraph::Entrance& in = graph_->entrance(e);
    // Entrances of another part of the cluster are not reached without leaving it elsewhere.
    if (in.component[in.cluster[0] == c ? 0 : 1] != part) continue;
    best =
        std::min(best, std::max(0.0f, Distance(pos, in.anchor) - in.radius) * scale_ + CostOf(e));
  }
  return std::isfinite(best) ? best : 0.0f;
}

}  // namespace waymesh::internal
