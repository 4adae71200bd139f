#include "exact/hub_labels.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <queue>
#include <random>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_format.h"
#include "exact/stamped_slots.h"

namespace waymesh::internal::exact {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// Roots of the shortest-path trees that rank vertices for kSampledTreeCover. More roots
// estimate better but cost a full Dijkstra each: on aurora-merged's corner graph (17 414
// corners) 64 roots give 137 entries per corner against 146 with 16.
constexpr uint32_t kTreeCoverSamples = 64;
constexpr uint32_t kTreeCoverSeed = 32;

// Both directions of every edge, grouped by tail (CSR).
struct Adjacency {
  struct Arc {
    uint32_t head = 0;
    double length = 0;
  };
  std::vector<uint32_t> start;
  std::vector<Arc> arcs;

  std::span<const Arc> From(uint32_t v) const {
    return {arcs.data() + start[v], arcs.data() + start[v + 1]};
  }
  uint32_t Degree(uint32_t v) const { return start[v + 1] - start[v]; }
};

absl::Status CheckEdges(uint32_t vertices, std::span<const HubLabels::WeightedEdge> edges) {
  for (size_t i = 0; i < edges.size(); ++i) {
    const HubLabels::WeightedEdge& e = edges[i];
    if (e.a >= vertices || e.b >= vertices) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "hub labels: edge %d joins vertices %d and %d of %d", i, e.a, e.b, vertices));
    }
    if (!(e.length >= 0) || !std::isfinite(e.length)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("hub labels: edge %d has length %g", i, e.length));
    }
  }
  return absl::OkStatus();
}

Adjacency BuildAdjacency(uint32_t vertices, std::span<const HubLabels::WeightedEdge> edges) {
  Adjacency adj;
  adj.start.assign(vertices + 1, 0);
  for (const HubLabels::WeightedEdge& e : edges) {
    if (e.a == e.b) continue;
    ++adj.start[e.a + 1];
    ++adj.start[e.b + 1];
  }
  std::partial_sum(adj.start.begin(), adj.start.end(), adj.start.begin());
  adj.arcs.resize(adj.start[vertices]);
  std::vector<uint32_t> next(adj.start.begin(), adj.start.end() - 1);
  for (const HubLabels::WeightedEdge& e : edges) {
    if (e.a == e.b) continue;
    adj.arcs[next[e.a]++] = {e.b, e.length};
    adj.arcs[next[e.b]++] = {e.a, e.length};
  }
  return adj;
}

// Vertices by descending score, ties by descending degree then ascending id (deterministic).
std::vector<uint32_t> OrderByScore(const Adjacency& adj, const std::vector<uint64_t>& score) {
  std::vector<uint32_t> order(adj.start.size() - 1);
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](uint32_t x, uint32_t y) {
    if (score[x] != score[y]) return score[x] > score[y];
    if (adj.Degree(x) != adj.Degree(y)) return adj.Degree(x) > adj.Degree(y);
    return x < y;
  });
  return order;
}

// Sums, over the shortest-path trees of sampled roots, the size of each vertex's subtree: the
// number of (root, vertex) shortest paths that pass through it.
std::vector<uint64_t> SampledTreeCover(const Adjacency& adj) {
  const uint32_t n = uint32_t(adj.start.size() - 1);
  std::vector<uint64_t> cover(n, 0);
  std::vector<double> dist(n, kInfinity);
  std::vector<uint32_t> parent(n), settled, subtree(n);
  std::mt19937 rng(kTreeCoverSeed);
  using Item = std::pair<double, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  for (uint32_t sample = 0; n > 0 && sample < std::min(n, kTreeCoverSamples); ++sample) {
    const uint32_t root = uint32_t(rng() % n);
    std::fill(dist.begin(), dist.end(), kInfinity);
    settled.clear();
    dist[root] = 0;
    parent[root] = root;
    open.push({0, root});
    while (!open.empty()) {
      const auto [d, u] = open.top();
      open.pop();
      if (d > dist[u]) continue;
      settled.push_back(u);
      for (const Adjacency::Arc& arc : adj.From(u)) {
        if (d + arc.length < dist[arc.head]) {
          dist[arc.head] = d + arc.length;
          parent[arc.head] = u;
          open.push({dist[arc.head], arc.head});
        }
      }
    }
    // Children settle after their parents: accumulate subtree sizes in reverse.
    for (uint32_t u : settled) subtree[u] = 1;
    for (size_t i = settled.size(); i-- > 1;) subtree[parent[settled[i]]] += subtree[settled[i]];
    for (uint32_t u : settled) cover[u] += subtree[u];
  }
  return cover;
}

std::vector<uint32_t> BuildOrder(const Adjacency& adj, HubLabels::VertexOrder order) {
  if (order == HubLabels::VertexOrder::kSampledTreeCover) {
    return OrderByScore(adj, SampledTreeCover(adj));
  }
  std::vector<uint64_t> degree(adj.start.size() - 1);
  for (uint32_t v = 0; v < degree.size(); ++v) degree[v] = adj.Degree(v);
  return OrderByScore(adj, degree);
}

// Bytes of the built labels of `vertices` vertices holding `entries` entries in all: offsets,
// hub and distance, parent, and the rank <-> vertex maps.
size_t LabelBytes(size_t vertices, size_t entries) {
  return (vertices + 1) * sizeof(uint32_t) + entries * (2 * sizeof(uint32_t) + sizeof(float)) +
         2 * vertices * sizeof(uint32_t);
}

// The pruned Dijkstras of PLL. Labels grow in double precision during the build so pruning
// decisions are exact; they are narrowed to float once built.
class PrunedLabelling {
 public:
  struct Entry {
    uint32_t hub = 0, parent = 0;
    double distance = 0;
  };

  PrunedLabelling(const Adjacency& adj, size_t max_bytes)
      : adj_(adj),
        max_bytes_(max_bytes),
        labels_(adj.start.size() - 1),
        dist_(labels_.size(), kInfinity),
        parent_(labels_.size()),
        root_distance_(labels_.size(), kInfinity) {}

  // Runs the pruned Dijkstra of the vertex of rank `rank`; RESOURCE_EXHAUSTED past the budget.
  absl::Status AddHub(uint32_t rank, uint32_t root) {
    for (const Entry& e : labels_[root]) root_distance_[e.hub] = e.distance;
    absl::Status status = Search(rank, root);
    for (const Entry& e : labels_[root]) root_distance_[e.hub] = kInfinity;
    for (uint32_t v : reached_) dist_[v] = kInfinity;
    reached_.clear();
    open_ = {};
    return status;
  }

  std::vector<std::vector<Entry>>& labels() { return labels_; }
  size_t entries() const { return entries_; }

 private:
  absl::Status Search(uint32_t rank, uint32_t root) {
    dist_[root] = 0;
    parent_[root] = root;
    reached_.push_back(root);
    open_.push({0, root});
    while (!open_.empty()) {
      const auto [d, u] = open_.top();
      open_.pop();
      if (d > dist_[u]) continue;
      // Earlier hubs already give d(root, u), and every path on from u: prune.
      if (DistanceViaEarlierHubs(u) <= d) continue;
      labels_[u].push_back({rank, parent_[u], d});
      // Offsets are 32-bit: past 2^32 entries the labels outgrow any budget.
      if (LabelBytes(labels_.size(), ++entries_) > max_bytes_ ||
          entries_ > std::numeric_limits<uint32_t>::max()) {
        return absl::ResourceExhaustedError(absl::StrFormat(
            "hub labels outgrow their budget of %d bytes (%d entries after %d of %d hubs)",
            max_bytes_, entries_, rank + 1, labels_.size()));
      }
      for (const Adjacency::Arc& arc : adj_.From(u)) {
        if (d + arc.length < dist_[arc.head]) {
          if (dist_[arc.head] == kInfinity) reached_.push_back(arc.head);
          dist_[arc.head] = d + arc.length;
          parent_[arc.head] = u;
          open_.push({dist_[arc.head], arc.head});
        }
      }
    }
    return absl::OkStatus();
  }

  // The least distance from the current root to u through hubs of earlier rank.
  double DistanceViaEarlierHubs(uint32_t u) const {
    double best = kInfinity;
    for (const Entry& e : labels_[u]) best = std::min(best, root_distance_[e.hub] + e.distance);
    return best;
  }

  using Item = std::pair<double, uint32_t>;
  const Adjacency& adj_;
  const size_t max_bytes_;
  std::vector<std::vector<Entry>> labels_;  // per vertex, in hub rank order
  size_t entries_ = 0;
  std::vector<double> dist_;      // per vertex, current Dijkstra
  std::vector<uint32_t> parent_;  // per vertex, current Dijkstra
  std::vector<uint32_t> reached_;
  std::vector<double> root_distance_;  // per hub rank: distance from the current root
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open_;
};

}  // namespace

absl::StatusOr<HubLabels> HubLabels::Build(uint32_t vertices, std::span<const WeightedEdge> edges,
                                           size_t max_bytes, VertexOrder order) {
  if (absl::Status s = CheckEdges(vertices, edges); !s.ok()) return s;
  if (LabelBytes(vertices, 0) > max_bytes) {
    return absl::ResourceExhaustedError(absl::StrFormat(
        "hub labels outgrow their budget of %d bytes (%d vertices)", max_bytes, vertices));
  }
  const Adjacency adj = BuildAdjacency(vertices, edges);
  HubLabels labels;
  labels.hub_vertex_ = BuildOrder(adj, order);
  labels.vertex_rank_.resize(vertices);
  PrunedLabelling labelling(adj, max_bytes);
  for (uint32_t rank = 0; rank < vertices; ++rank) {
    labels.vertex_rank_[labels.hub_vertex_[rank]] = rank;
    if (absl::Status s = labelling.AddHub(rank, labels.hub_vertex_[rank]); !s.ok()) return s;
  }
  labels.label_start_.reserve(vertices + 1);
  labels.hubs_.reserve(labelling.entries());
  labels.parents_.reserve(labelling.entries());
  for (std::vector<PrunedLabelling::Entry>& label : labelling.labels()) {
    for (const PrunedLabelling::Entry& e : label) {
      labels.hubs_.push_back({e.hub, float(e.distance)});
      labels.parents_.push_back(e.parent);
    }
    labels.label_start_.push_back(uint32_t(labels.hubs_.size()));
    std::vector<PrunedLabelling::Entry>().swap(label);  // frees the build copy as it goes
  }
  return labels;
}

std::pair<uint32_t, double> HubLabels::BestCommonHub(uint32_t u, uint32_t v) const {
  std::pair<uint32_t, double> best{kNoHub, kInfinity};
  uint32_t i = label_start_[u], j = label_start_[v];
  const uint32_t i_end = label_start_[u + 1], j_end = label_start_[v + 1];
  while (i < i_end && j < j_end) {
    if (hubs_[i].hub < hubs_[j].hub) {
      ++i;
    } else if (hubs_[j].hub < hubs_[i].hub) {
      ++j;
    } else {
      const double d = double(hubs_[i].distance) + double(hubs_[j].distance);
      if (d < best.second) best = {hubs_[i].hub, d};
      ++i;
      ++j;
    }
  }
  return best;
}

double HubLabels::Distance(uint32_t u, uint32_t v) const {
  return u == v ? 0 : BestCommonHub(u, v).second;
}

void HubLabels::Path(uint32_t u, uint32_t v, std::vector<uint32_t>* out) const {
  out->clear();
  if (u == v) {
    out->push_back(u);
    return;
  }
  const uint32_t hub = BestCommonHub(u, v).first;
  if (hub != kNoHub) PathVia(u, hub_vertex_[hub], v, out);
}

void HubLabels::PathVia(uint32_t u, uint32_t hub, uint32_t v, std::vector<uint32_t>* out) const {
  out->clear();
  const uint32_t rank = vertex_rank_[hub];
  AppendWalkToHub(u, rank, out);
  const size_t from_v = out->size();
  AppendWalkToHub(v, rank, out);
  std::reverse(out->begin() + from_v, out->end());
  out->insert(out->begin() + from_v, hub);
}

void HubLabels::AppendWalkToHub(uint32_t u, uint32_t hub, std::vector<uint32_t>* out) const {
  const HubDistance* begin = hubs_.data();
  for (uint32_t x = u; x != hub_vertex_[hub];) {
    out->push_back(x);
    const HubDistance* entry =
        std::lower_bound(begin + label_start_[x], begin + label_start_[x + 1], hub,
                         [](const HubDistance& e, uint32_t h) { return e.hub < h; });
    x = parents_[entry - begin];
  }
}

std::optional<HubLabels::Meeting> HubLabels::BestMeeting(std::span<const Seed> sources,
                                                         std::span<const Seed> targets,
                                                         Scratch* scratch) const {
  uint32_t& stamp = scratch->stamp_;
  std::vector<Scratch::Slot>& slots = scratch->slots_;
  StartStamp(&slots, &stamp, &scratch->hubs_reached_, vertices());
  // Slots added for a larger graph start with stamp 0, which no query uses.
  if (slots.size() < vertices()) slots.resize(vertices());
  for (uint32_t i = 0; i < sources.size(); ++i) {
    const Seed& s = sources[i];
    for (uint32_t e = label_start_[s.vertex]; e < label_start_[s.vertex + 1]; ++e) {
      Scratch::Slot& slot = slots[hubs_[e].hub];
      const double d = s.offset + double(hubs_[e].distance);
      if (slot.stamp != stamp) {
        slot = {stamp, i, d};
        ++scratch->hubs_reached_;
      } else if (d < slot.best) {
        slot.best = d;
        slot.source = i;
      }
    }
  }
  std::optional<Meeting> best;
  for (uint32_t j = 0; j < targets.size(); ++j) {
    const Seed& t = targets[j];
    for (uint32_t e = label_start_[t.vertex]; e < label_start_[t.vertex + 1]; ++e) {
      const Scratch::Slot& slot = slots[hubs_[e].hub];
      if (slot.stamp != stamp) continue;
      const double d = slot.best + double(hubs_[e].distance) + t.offset;
      if (!best || d < best->length) best = Meeting{d, slot.source, j, hub_vertex_[hubs_[e].hub]};
    }
  }
  return best;
}

size_t HubLabels::bytes() const { return LabelBytes(vertices(), hubs_.size()); }

double HubLabels::mean_label_size() const {
  return vertices() == 0 ? 0 : double(hubs_.size()) / vertices();
}

uint32_t HubLabels::max_label_size() const {
  uint32_t most = 0;
  for (uint32_t v = 0; v < vertices(); ++v) {
    most = std::max(most, label_start_[v + 1] - label_start_[v]);
  }
  return most;
}

}  // namespace waymesh::internal::exact
