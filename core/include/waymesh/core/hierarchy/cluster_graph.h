#pragma once
// The abstract graph of a map for long path searches. Its clusters are the map's tiles; an
// entrance is a chain of portal edges two tiles share (at most kEntranceSpan metres across),
// stood for by the midpoint of one of its edges (the anchor); per cluster, the walking
// cost between every two of its entrances' anchors without leaving the cluster, measured by the
// same funnel (edge-point) cost model as the polygon A* under the map's default filter
// (QueryFilter(info)). A path query with that filter turns the graph into a lower bound of the
// cost to its goal from anywhere (goal_distances.h in core/src/hierarchy), a second A*
// heuristic beside the landmark bound.
//
// Built from a resident map on request (SearchTables::Build does not: measured, the bound does
// not beat the landmark bound yet; docs/hierarchy.md) and attached to the map's search tables,
// shared read-only by every query object. Carved tiles of a later map version are searched
// without it.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "waymesh/core/nav_map.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

class ClusterGraph {
 public:
  // Widest stretch of a tile border one entrance stands for (metres, per axis).
  static constexpr float kEntranceSpan = 16.0f;
  // Maps with fewer tiles gain nothing: no graph is built.
  static constexpr uint32_t kMinTiles = 4;

  // A stretch of border between clusters cluster[0] < cluster[1]; slot[i] is its index among
  // cluster[i]'s entrances, component[i] the part of cluster[i] its anchor is in (ComponentOf).
  // A walk along the stretch from the anchor reaches any point of it within `radius` metres.
  struct Entrance {
    Vec3 anchor;
    float radius;
    uint32_t cluster[2];
    uint32_t slot[2];
    uint32_t component[2];
  };
  // ComponentOf a polygon the default filter rejects.
  static constexpr uint32_t kNoComponent = 0xFFFFFFFFu;

  // An empty graph: queries search without it.
  ClusterGraph() = default;
  // The graph of a resident map (O(entrances * polygons of a tile log)).
  static ClusterGraph Build(const NavMap& map);

  bool empty() const { return entrances_.empty(); }
  size_t bytes() const;
  uint32_t cluster_count() const {
    return cluster_start_.empty() ? 0 : uint32_t(cluster_start_.size() - 1);
  }
  uint32_t entrance_count() const { return uint32_t(entrances_.size()); }
  const Entrance& entrance(uint32_t e) const { return entrances_[e]; }
  // The entrances of cluster `c` (< cluster_count()), in slot order.
  std::span<const uint32_t> EntrancesOf(uint32_t c) const {
    return {cluster_entrances_.data() + cluster_start_[c],
            cluster_entrances_.data() + cluster_start_[c + 1]};
  }
  // Costs inside cluster `c` from its entrance in `slot` to each of its entrances, in slot
  // order (INFINITY: not connected inside the cluster).
  std::span<const float> CostsFrom(uint32_t c, uint32_t slot) const {
    const size_t k = cluster_start_[c + 1] - cluster_start_[c];
    return {costs_.data() + cost_start_[c] + slot * k, k};
  }
  // Which part of its cluster polygon `global` (dense index of the map the graph was built on)
  // is in: polygons of one cluster share a part when they are joined inside the cluster.
  uint32_t ComponentOf(uint32_t global) const { return component_[global]; }
  // The highest cost per metre of an area the map has, under the graph's filter: what walking
  // along an entrance from its anchor may cost at most per metre.
  float dearest_rate() const { return dearest_rate_; }
  // Whether the costs hold for `filter` (it is the one they were measured with).
  bool Serves(const QueryFilter& filter) const { return !empty() && filter == filter_; }

 private:
  std::vector<Entrance> entrances_;
  std::vector<uint32_t> cluster_start_;      // clusters + 1, CSR into cluster_entrances_
  std::vector<uint32_t> cluster_entrances_;  // entrance ids grouped by cluster, slot order
  std::vector<size_t> cost_start_;           // clusters + 1: each cluster's k x k block
  std::vector<float> costs_;
  std::vector<uint32_t> component_;  // per polygon (ComponentOf)
  QueryFilter filter_;
  float dearest_rate_ = 1;
};

}  // namespace waymesh
