#include "hierarchy/abstract_route.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace waymesh::internal {

void AbstractRoute::Reset(uint32_t nodes) {
  if (stamp_.size() != nodes) {
    stamp_.assign(nodes, 0);
    g_.assign(nodes, INFINITY);
    f_.assign(nodes, INFINITY);
    h_.assign(nodes, 0);
    parent_.assign(nodes, kFromStart);
    via_.assign(nodes, 0);
    closed_.assign(nodes, 0);
    sharp_.assign(nodes, 0);
    generation_ = 0;
  }
  if (++generation_ == 0) {  // wrapped: forget every stamp
    std::fill(stamp_.begin(), stamp_.end(), 0);
    generation_ = 1;
  }
  heap_.clear();
  legs_.clear();
  settled_ = 0;
}

void AbstractRoute::Offer(uint32_t n, float g, uint32_t parent, uint32_t cluster,
                          absl::FunctionRef<float(uint32_t)> cheap) {
  if (stamp_[n] != generation_) {
    stamp_[n] = generation_;
    closed_[n] = 0;
    sharp_[n] = 0;
    h_[n] = cheap(n);
  } else if (closed_[n] != 0 || !(g < g_[n])) {
    return;
  }
  g_[n] = g;
  f_[n] = g + h_[n];
  parent_[n] = parent;
  via_[n] = cluster;
  heap_.emplace_back(f_[n], n);
  std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
}

bool AbstractRoute::Sharpened(uint32_t n, absl::FunctionRef<float(uint32_t)> sharp) {
  if (sharp_[n] != 0) return true;
  // Most reached entrances are never settled: measured on the 1024 m town, a query settled
  // about 230 of the entrances it reached, and the sharp (landmark) bound, which reads a row
  // per landmark, was most of the abstract search's time when every reached entrance got it.
  sharp_[n] = 1;
  const float h = std::max(h_[n], sharp(n));
  if (h == h_[n]) return true;
  h_[n] = h;
  f_[n] = g_[n] + h;
  heap_.emplace_back(f_[n], n);
  std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
  return false;
}

void AbstractRoute::TraceBack(uint32_t goal_node) {
  legs_.push_back({via_[goal_node], RouteLeg::kToGoal});
  for (uint32_t n = parent_[goal_node]; n != kFromStart; n = parent_[n]) {
    legs_.push_back({via_[n], n});
  }
  std::reverse(legs_.begin(), legs_.end());
}

bool AbstractRoute::Find(const ClusterGraph& graph, End start, End goal, const Bounds& bounds) {
  const uint32_t goal_node = graph.entrance_count();
  Reset(goal_node + 1);
  const auto at_goal = [](uint32_t) { return 0.0f; };
  const auto firsts = graph.EntrancesOf(start.cluster);
  for (uint32_t k = 0; k < firsts.size(); ++k) {
    if (std::isfinite(start.costs[k])) {
      Offer(firsts[k], start.costs[k], kFromStart, start.cluster, bounds.cheap);
    }
  }
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    const auto [f, n] = heap_.back();
    heap_.pop_back();
    if (closed_[n] != 0 || f != f_[n]) continue;  // stale entry
    if (n != goal_node && !Sharpened(n, bounds.sharp)) continue;
    closed_[n] = 1;
    ++settled_;
    if (n == goal_node) {
      TraceBack(goal_node);
      return true;
    }
    const ClusterGraph::Entrance& in = graph.entrance(n);
    for (int side = 0; side < 2; ++side) {
      const uint32_t c = graph.ClusterOn(in, side);
      const auto members = graph.EntrancesOf(c);
      // The cluster n was reached through: its other entrances were offered from n's parent
      // directly, and a walk inside a cluster is no cheaper through one of its own entrances
      // (half the offers of a search).
      for (uint32_t k = 0; k < members.size() && c != via_[n]; ++k) {
        const float cost = graph.Cost(c, in.slot[side], k);
        if (members[k] == n || !std::isfinite(cost)) continue;
        Offer(members[k], g_[n] + cost, n, c, bounds.cheap);
      }
      if (c == goal.cluster && std::isfinite(goal.costs[in.slot[side]])) {
        Offer(goal_node, g_[n] + goal.costs[in.slot[side]], n, c, at_goal);
      }
    }
  }
  return false;
}

}  // namespace waymesh::internal
