#pragma once
// Exact shortest distances and paths on an undirected graph with non-negative edge lengths from
// hub labels: each vertex stores a few (hub, distance) pairs such that every pair of vertices
// shares a hub on one of its shortest paths, so d(u, v) is a merge of two short sorted lists.
// Built by pruned landmark labelling (Akiba, Iwata & Yoshida, SIGMOD 2013): one Dijkstra per
// vertex in a fixed order, pruned wherever earlier hubs already give the distance. The exact
// mode's corner graph (turn corners that see each other) is the intended graph; this file
// knows nothing of maps.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "absl/status/statusor.h"

namespace waymesh::internal::exact {

class HubLabels {
 public:
  struct WeightedEdge {
    uint32_t a = 0, b = 0;
    double length = 0;
  };
  // The order in which vertices become hubs. Early hubs prune the later Dijkstras, so the best
  // order puts first the vertices most shortest paths pass through. On aurora-merged's corner
  // graph (17 414 corners) tree cover gives labels a quarter the size of degree order's (137
  // entries per corner against 576), built in 8 s against 40 s, and cuts the query's
  // BestMeeting to a third (100 us median against 300).
  enum class VertexOrder {
    kDegree,  // most edges first
    // Most descendants summed over the shortest-path trees of a sample of roots (fixed seed):
    // a cheap estimate of how many shortest paths pass through a vertex.
    kSampledTreeCover,
  };
  // A vertex where a many-to-many query starts or ends, at `offset` from the query's endpoint.
  struct Seed {
    uint32_t vertex = 0;
    double offset = 0;
  };
  // The best route of BestMeeting: indices into its sources and targets, and the hub vertex.
  struct Meeting {
    double length = 0;
    uint32_t source = 0, target = 0, hub = 0;
  };
  // Per-query state of BestMeeting, reused so a warm query allocates nothing.
  class Scratch {
   public:
    // Distinct hubs the last query's sources reached.
    uint32_t hubs_reached() const { return hubs_reached_; }

   private:
    friend class HubLabels;
    struct Slot {
      uint32_t stamp = 0;
      uint32_t source = 0;  // index of the seed that reaches the hub most cheaply
      double best = 0;      // that seed's offset plus its distance to the hub
    };
    std::vector<Slot> slots_;  // per hub rank
    uint32_t stamp_ = 0;
    uint32_t hubs_reached_ = 0;
  };

  // Labels of `vertices` vertices joined by `edges` (either direction; self loops ignored).
  // INVALID_ARGUMENT for an edge naming a vertex out of range or a negative or non-finite
  // length; RESOURCE_EXHAUSTED, naming `max_bytes`, when the labels would outgrow it.
  static absl::StatusOr<HubLabels> Build(uint32_t vertices, std::span<const WeightedEdge> edges,
                                         size_t max_bytes,
                                         VertexOrder order = VertexOrder::kSampledTreeCover);

  // Shortest distance between u and v; +infinity when no path joins them.
  double Distance(uint32_t u, uint32_t v) const;
  // Writes a shortest path u ... v (vertices, both ends included; {u} when u == v) to *out;
  // leaves *out empty when no path joins them.
  void Path(uint32_t u, uint32_t v, std::vector<uint32_t>* out) const;
  // Writes the shortest path u ... hub ... v through `hub` (a Meeting's hub, which lies in
  // both u's and v's labels) to *out.
  void PathVia(uint32_t u, uint32_t hub, uint32_t v, std::vector<uint32_t>* out) const;
  // The least sources[i].offset + d(sources[i], targets[j]) + targets[j].offset over all pairs,
  // in one pass over the seeds' labels (O(sum of their sizes)); nullopt when no pair is joined.
  std::optional<Meeting> BestMeeting(std::span<const Seed> sources, std::span<const Seed> targets,
                                     Scratch* scratch) const;

  uint32_t vertices() const { return uint32_t(label_start_.size() - 1); }
  // Memory held by the labels (all arrays), in bytes.
  size_t bytes() const;
  size_t label_entries() const { return hubs_.size(); }
  double mean_label_size() const;
  uint32_t max_label_size() const;

 private:
  // One label entry: a hub (by rank, the position in the build order) and the distance to it.
  // Float halves the entries a query streams; the exact mode recomputes a path's length from
  // its waypoints, so a label distance only has to choose the route, and float's relative
  // error (6e-8, about 0.1 mm over 1 km) is far below the gap between distinct routes.
  struct HubDistance {
    uint32_t hub = 0;
    float distance = 0;
  };

  HubLabels() = default;
  // The best hub shared by u's and v's labels: its rank, or kNoHub, and the distance via it.
  std::pair<uint32_t, double> BestCommonHub(uint32_t u, uint32_t v) const;
  // Appends the vertices from u to the vertex of hub rank `hub` (excluded) to *out, by parents.
  void AppendWalkToHub(uint32_t u, uint32_t hub, std::vector<uint32_t>* out) const;

  static constexpr uint32_t kNoHub = ~0u;

  std::vector<uint32_t> label_start_{0};  // vertices + 1 offsets into hubs_ and parents_
  std::vector<HubDistance> hubs_;         // each label sorted by hub rank
  // Per entry: the next vertex towards the hub on the hub's pruned Dijkstra tree (the hub
  // itself for its own entry). In PLL that vertex was expanded by the same Dijkstra, so it
  // holds an entry for the same hub, and a path unpacks by walking parents.
  std::vector<uint32_t> parents_;
  std::vector<uint32_t> hub_vertex_;   // per rank: the vertex
  std::vector<uint32_t> vertex_rank_;  // per vertex: its rank
};

}  // namespace waymesh::internal::exact
