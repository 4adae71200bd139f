#include "waymesh/core/hierarchy/entrance_landmarks.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <queue>
#include <utility>

#include "waymesh/core/hierarchy/cluster_graph.h"

namespace waymesh {
namespace {

// Graph distances from entrance `source` to every entrance of `graph` (INFINITY: not reached),
// over the costs between the entrances of each cluster.
void GraphDistancesFrom(const ClusterGraph& graph, uint32_t source, std::vector<double>* dist) {
  dist->assign(graph.entrance_count(), INFINITY);
  using Item = std::pair<double, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> heap;
  (*dist)[source] = 0;
  heap.emplace(0.0, source);
  while (!heap.empty()) {
    const auto [d, n] = heap.top();
    heap.pop();
    if (d > (*dist)[n]) continue;  // stale entry
    const ClusterGraph::Entrance& in = graph.entrance(n);
    for (int side = 0; side < 2; ++side) {
      const uint32_t c = graph.ClusterOn(in, side);
      const auto members = graph.EntrancesOf(c);
      for (uint32_t k = 0; k < members.size(); ++k) {
        const float cost = graph.Cost(c, in.slot[side], k);
        if (!std::isfinite(cost) || !(d + cost < (*dist)[members[k]])) continue;
        (*dist)[members[k]] = d + cost;
        heap.emplace(d + cost, members[k]);
      }
    }
  }
}

// The reached entrance with the largest of `dist` (the first of equals).
uint32_t FarthestReached(const std::vector<double>& dist) {
  uint32_t best = 0;
  for (uint32_t e = 0; e < dist.size(); ++e) {
    if (std::isfinite(dist[e]) && (!std::isfinite(dist[best]) || dist[e] > dist[best])) best = e;
  }
  return best;
}

}  // namespace

EntranceLandmarks EntranceLandmarks::Build(const ClusterGraph& graph) {
  const uint32_t n = graph.entrance_count();
  EntranceLandmarks out;
  if (n < 2) return out;
  // Farthest first: each landmark is the entrance farthest from the landmarks before it (the
  // first, the one farthest from entrance 0), which spreads them round the graph's rim, where
  // ALT bounds are sharpest. Entrances not connected to entrance 0 get no bounds.
  std::vector<std::vector<double>> from(kCount);
  std::vector<double> nearest;
  GraphDistancesFrom(graph, 0, &nearest);
  uint32_t next = FarthestReached(nearest);
  nearest.assign(n, INFINITY);
  double largest = 0;
  for (uint32_t l = 0; l < kCount; ++l) {
    GraphDistancesFrom(graph, next, &from[l]);
    for (uint32_t e = 0; e < n; ++e) {
      if (!std::isfinite(from[l][e])) continue;
      largest = std::max(largest, from[l][e]);
      nearest[e] = std::isfinite(nearest[e]) ? std::min(nearest[e], from[l][e]) : from[l][e];
    }
    next = FarthestReached(nearest);
  }
  // Rounded down in codes of step_: a code stands for a distance in [code, code + 1) steps.
  out.step_ = largest > 0 ? float(largest / double(kUnreached - 1) * (1.0 + 1e-6)) : 1.0f;
  out.rows_.assign(size_t(n) * kCount, kUnreached);
  for (uint32_t e = 0; e < n; ++e) {
    for (uint32_t l = 0; l < kCount; ++l) {
      if (!std::isfinite(from[l][e])) continue;
      const double code = std::floor(from[l][e] / double(out.step_));
      out.rows_[size_t(e) * kCount + l] = uint16_t(std::min(code, double(kUnreached - 1)));
    }
  }
  return out;
}

EntranceLandmarks::GoalBound EntranceLandmarks::ForGoal(std::span<const uint32_t> entrances,
                                                        std::span<const float> costs) const {
  GoalBound goal;
  goal.through_goal.fill(INFINITY);
  goal.beyond_goal.fill(-INFINITY);
  if (empty()) return goal;
  for (size_t i = 0; i < entrances.size() && i < costs.size(); ++i) {
    if (!std::isfinite(costs[i])) continue;
    for (uint32_t l = 0; l < kCount; ++l) {
      const uint16_t code = rows_[size_t(entrances[i]) * kCount + l];
      if (code == kUnreached) continue;
      const float low = float(code) * step_;
      goal.through_goal[l] = std::min(goal.through_goal[l], low + costs[i]);
      goal.beyond_goal[l] = std::max(goal.beyond_goal[l], low + step_ - costs[i]);
    }
  }
  return goal;
}

float EntranceLandmarks::Bound(uint32_t e, const GoalBound& goal) const {
  if (empty()) return 0.0f;
  // From e to the goal through goal entrance g: at least d(l, g) - d(l, e) and d(l, e) - d(l, g)
  // for every landmark l that reaches e (a g it does not reach, e does not reach either).
  float bound = 0.0f;
  for (uint32_t l = 0; l < kCount; ++l) {
    const uint16_t code = rows_[size_t(e) * kCount + l];
    if (code == kUnreached) continue;
    const float low = float(code) * step_;
    if (std::isfinite(goal.through_goal[l])) {
      bound = std::max(bound, goal.through_goal[l] - (low + step_));
    }
    if (std::isfinite(goal.beyond_goal[l])) bound = std::max(bound, low - goal.beyond_goal[l]);
  }
  return bound;
}

float EntranceLandmarks::Distance(uint32_t l, uint32_t e) const {
  const uint16_t code = rows_[size_t(e) * kCount + l];
  return code == kUnreached ? INFINITY : float(code) * step_;
}

}  // namespace waymesh
