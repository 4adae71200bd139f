#pragma once
// The abstract graph of a map for long path searches (HPA*-style). A cluster is a square of
// k x k grid tiles; an entrance is a chain of portal edges two clusters share (at most
// kEntranceSpan metres across), stood for by the midpoint of one of its edges (the anchor),
// with the polygon on each side of that edge; per cluster, the walking cost between every two
// of its entrances' anchors without leaving the cluster, measured by the same funnel
// (edge-point) cost model as the polygon A* under the map's default filter (QueryFilter(info)).
//
// A long path query with that filter searches the entrances (hierarchy/abstract_route.h in
// core/src), then refines the route cluster by cluster (hierarchy/hierarchical_search.h): a
// leg between two entrances from the stored corridors (cluster_corridors.h) when the graph has
// them, any other leg with the polygon A* restricted to its cluster; and string-pulls the
// joined corridor.
//
// Built from a resident map with its search tables (SearchTables::Build) and shared read-only
// by every query object. Clusters an obstacle layer carved are searched without it.

#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "waymesh/core/hierarchy/cluster_corridors.h"
#include "waymesh/core/hierarchy/cluster_costs.h"
#include "waymesh/core/hierarchy/polygon_parts.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/poly_index.h"
#include "waymesh/core/query_filter.h"
#include "waymesh/core/vec3.h"

namespace waymesh {

class ClusterGraph {
 public:
  // Widest stretch of a cluster border one entrance stands for (metres, per axis).
  static constexpr float kEntranceSpan = 16.0f;
  // Tiles per cluster side when the caller does not say (docs/hierarchy.md: measured).
  static constexpr uint32_t kDefaultTilesPerSide = 1;
  // Most connected parts one cluster may fall into (16-bit part numbers); a map with more
  // gets no graph.
  static constexpr uint32_t kMaxPartsPerCluster = PolygonParts::kMaxParts;
  // Largest cluster side accepted (tiles): bigger clusters cost more build than they save.
  static constexpr uint32_t kMaxTilesPerSide = 8;
  // Maps with fewer clusters gain nothing: no graph is built.
  static constexpr uint32_t kMinClusters = 4;
  // The graph with its stored corridors may take at most this share of the bytes of the map's
  // tiles (issue 31's memory target); a graph whose corridors would exceed it keeps none (its
  // legs are searched).
  static constexpr double kMaxShareOfMap = 0.10;

  // A stretch of border between two clusters; poly[i] is the polygon on side i of the anchor's
  // edge, slot[i] the entrance's index among the entrances of that side's cluster
  // (ClusterOn(e, i); side 0 is in the lower-numbered cluster). The clusters are not stored:
  // they follow from the polygons' tiles (8 bytes of 44 per entrance, 0.28 MB on the 16 km²
  // world).
  struct Entrance {
    Vec3 anchor;
    uint32_t slot[2];
    PolyIndex poly[2];
  };

  // An empty graph: queries search without it.
  ClusterGraph() = default;
  // The graph of a resident map with clusters of `tiles_per_side` squared tiles (1 to
  // kMaxTilesPerSide; O(entrances * polygons of a cluster * log)), with the corridors between
  // entrances stored when `store_corridors` and they fit in kMaxShareOfMap. Empty for paged
  // maps, maps with fewer than kMinClusters clusters and maps with a cluster of more than
  // kMaxPartsPerCluster parts.
  static ClusterGraph Build(const NavMap& map, uint32_t tiles_per_side = kDefaultTilesPerSide,
                            bool store_corridors = true);

  bool empty() const { return entrances_.empty(); }
  size_t bytes() const;
  uint32_t tiles_per_side() const { return tiles_per_side_; }
  uint32_t cluster_count() const {
    return cluster_start_.empty() ? 0 : uint32_t(cluster_start_.size() - 1);
  }
  // The cluster of tile `tile` (< tile_count()).
  uint32_t ClusterOf(uint32_t tile) const { return cluster_of_tile_[tile]; }
  // Whether clusters `a` and `b` are different squares that touch (sides or corners).
  bool Neighbours(uint32_t a, uint32_t b) const {
    const int64_t dx = int64_t(square_x_[a]) - square_x_[b],
                  dz = int64_t(square_z_[a]) - square_z_[b];
    return a != b && dx >= -1 && dx <= 1 && dz >= -1 && dz <= 1;
  }
  // The cluster on side `side` (0 or 1) of entrance `e`.
  uint32_t ClusterOn(const Entrance& e, int side) const {
    return cluster_of_tile_[e.poly[side].tile];
  }
  // The side of entrance `e` that lies in cluster `c` (one of its two clusters).
  int SideIn(const Entrance& e, uint32_t c) const { return ClusterOn(e, 0) == c ? 0 : 1; }
  // Per tile, its cluster (what a cluster-restricted search reads).
  const std::vector<uint32_t>& cluster_of_tile() const { return cluster_of_tile_; }
  uint32_t tile_count() const { return uint32_t(cluster_of_tile_.size()); }
  uint32_t entrance_count() const { return uint32_t(entrances_.size()); }
  const Entrance& entrance(uint32_t e) const { return entrances_[e]; }
  // The entrances of cluster `c` (< cluster_count()), in slot order.
  std::span<const uint32_t> EntrancesOf(uint32_t c) const {
    return {cluster_entrances_.data() + cluster_start_[c],
            cluster_entrances_.data() + cluster_start_[c + 1]};
  }
  // The cost inside cluster `c` between its entrances in slots `i` and `j`, the same both ways
  // (INFINITY: not connected inside the cluster; cluster_costs.h: 16-bit steps rounded up).
  float Cost(uint32_t c, uint32_t i, uint32_t j) const { return costs_.Cost(c, i, j); }
  // The connected part of its cluster polygon `table` (the numbering of the map's search
  // tables) is in, numbered within the cluster: polygons of one cluster with the same part
  // reach each other without leaving it.
  uint32_t PartOf(uint32_t table) const { return parts_.Of(table); }
  // All polygons' parts (8 bits each on most maps).
  const PolygonParts& parts() const { return parts_; }
  // The walks the costs measured, as polygon corridors (empty when not stored).
  const ClusterCorridors& corridors() const { return corridors_; }
  // Replaces the stored corridors by ones from elsewhere (kept from an earlier build, say). A
  // query checks each stored walk it uses and searches any leg whose walk does not lead from
  // one of its entrances' polygons to the other's inside the cluster, so a wrong store costs
  // time, never a wrong corridor.
  void ReplaceCorridors(ClusterCorridors corridors) { corridors_ = std::move(corridors); }
  // The lowest cost per metre any walk inside cluster `c` can have under the graph's filter:
  // the cheapest enabled area of its polygons, and of off-mesh links (at their cheapest rate
  // per metre) when its tiles have any. A straight walk inside the cluster that crosses only
  // polygons of this cost is the cheapest between its ends (no leg search needed).
  float CheapestRate(uint32_t c) const { return cheapest_rate_[c]; }
  // Whether the costs hold for `filter` (it is the one they were measured with).
  bool Serves(const QueryFilter& filter) const { return !empty() && filter == filter_; }

 private:
  uint32_t tiles_per_side_ = 1;
  std::vector<uint32_t> cluster_of_tile_;  // per tile
  std::vector<int32_t> square_x_;          // per cluster: its square's column in the tile grid
  std::vector<int32_t> square_z_;          // per cluster: its row
  PolygonParts parts_;                     // per polygon (PartOf)
  std::vector<Entrance> entrances_;
  std::vector<uint32_t> cluster_start_;      // clusters + 1, CSR into cluster_entrances_
  std::vector<uint32_t> cluster_entrances_;  // entrance ids grouped by cluster, slot order
  std::vector<float> cheapest_rate_;         // per cluster (CheapestRate)
  ClusterCosts costs_;
  ClusterCorridors corridors_;
  QueryFilter filter_;
};

}  // namespace waymesh
