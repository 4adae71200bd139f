#pragma once
// Landmark (ALT) bounds over a cluster graph's entrances (cluster_graph.h): per entrance, its
// graph distance from each of kCount landmark entrances, so that the abstract search gets a
// lower bound of the graph cost to its goal. The polygon landmarks bound the walking cost,
// which a route through entrance anchors exceeds by a few per cent; measured on the 16 km²
// world, a bound larger by 2 % halved the entrances a long query settles (1 398 -> 759), so a
// bound in the graph's own costs, tight where the polygon one is loose, saves the same
// without giving up the cheapest route.

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace waymesh {

class ClusterGraph;

class EntranceLandmarks {
 public:
  // Landmarks per map: 16 bits each per entrance (0.56 MB on the 16 km² world's 34 932).
  static constexpr uint32_t kCount = 8;

  // What a query keeps of its goal, per landmark: the least distance from the landmark to the
  // goal through one of the goal cluster's entrances, and the largest distance from the
  // landmark to one of them less its cost to the goal (both in the graph's costs, each rounded
  // the safe way).
  struct GoalBound {
    std::array<float, kCount> through_goal;
    std::array<float, kCount> beyond_goal;
  };

  EntranceLandmarks() = default;
  // The landmarks of `graph` (costs built; O(kCount Dijkstra runs over its entrances)), chosen
  // farthest first; empty when the graph has fewer than two entrances.
  static EntranceLandmarks Build(const ClusterGraph& graph);

  // The goal seen from the landmarks, given the goal cluster's entrances and their costs to the
  // goal (lower bounds; INFINITY: not reachable inside the cluster).
  GoalBound ForGoal(std::span<const uint32_t> entrances, std::span<const float> costs) const;
  // A lower bound of the graph cost from entrance `e` to the goal of `goal` (0 when the
  // landmarks know nothing; empty tables give 0).
  float Bound(uint32_t e, const GoalBound& goal) const;
  // The graph distance between landmark `l` (< kCount) and entrance `e`, rounded down, or
  // INFINITY when it does not reach e.
  float Distance(uint32_t l, uint32_t e) const;

  bool empty() const { return rows_.empty(); }
  size_t bytes() const { return rows_.size() * sizeof(uint16_t); }

 private:
  static constexpr uint16_t kUnreached = 0xFFFF;
  float step_ = 1.0f;           // cost per code
  std::vector<uint16_t> rows_;  // per entrance, kCount codes: floor(distance / step_)
};

}  // namespace waymesh
