#include "exact/corner_graph.h"

#include <algorithm>

namespace waymesh::internal::exact {

CornerGraph CornerGraph::Build(QueryContext& ctx, const QueryFilter& filter,
                               const TurnCornerIndex& index, CornerEdgeRule rule) {
  // Each pair once per side that sees the other (VisibleCorners lists a corner once).
  std::vector<CornerEdge> sightings;
  std::vector<SeenCorner> seen;
  for (uint32_t a = 0; a < index.size(); ++a) {
    const SurfacePoint from = index.point(a);
    VisibleCorners(ctx, from, filter, index, nullptr, &seen);
    for (const SeenCorner& s : seen) {
      if (s.corner == a) continue;
      sightings.push_back(CornerEdge{std::min(a, s.corner), std::max(a, s.corner), s.distance});
    }
  }
  std::sort(sightings.begin(), sightings.end(), [](const CornerEdge& x, const CornerEdge& y) {
    return x.a < y.a || (x.a == y.a && x.b < y.b);
  });
  CornerGraph graph;
  for (size_t i = 0; i < sightings.size();) {
    size_t j = i;
    double least = sightings[i].length;
    for (; j < sightings.size() && sightings[j].a == sightings[i].a &&
           sightings[j].b == sightings[i].b;
         ++j) {
      least = std::min(least, sightings[j].length);
    }
    const bool both_sides = j - i >= 2;
    if (both_sides || rule == CornerEdgeRule::kSeenFromEither) {
      graph.edges_.push_back(CornerEdge{sightings[i].a, sightings[i].b, least});
    }
    i = j;
  }
  // Adjacency lists from the edge list: counts, starts, then fill.
  graph.start_.assign(index.size() + 1, 0);
  for (const CornerEdge& e : graph.edges_) {
    ++graph.start_[e.a + 1];
    ++graph.start_[e.b + 1];
  }
  for (uint32_t c = 1; c <= index.size(); ++c) graph.start_[c] += graph.start_[c - 1];
  graph.neighbours_.resize(graph.start_.back());
  std::vector<uint32_t> fill(graph.start_.begin(), graph.start_.end() - 1);
  for (const CornerEdge& e : graph.edges_) {
    graph.neighbours_[fill[e.a]++] = CornerNeighbour{e.b, e.length};
    graph.neighbours_[fill[e.b]++] = CornerNeighbour{e.a, e.length};
  }
  return graph;
}

}  // namespace waymesh::internal::exact
