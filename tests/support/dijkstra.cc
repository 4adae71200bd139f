#include "support/dijkstra.h"

#include <functional>
#include <limits>
#include <queue>
#include <utility>

namespace waymesh::testing {

std::vector<double> DijkstraDistances(uint32_t vertices, std::span<const DijkstraSeed> seeds,
                                      ArcsOf arcs_of) {
  std::vector<double> dist(vertices, std::numeric_limits<double>::infinity());
  using Item = std::pair<double, uint32_t>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
  for (const DijkstraSeed& seed : seeds) {
    if (seed.distance < dist[seed.vertex]) {
      dist[seed.vertex] = seed.distance;
      open.push({seed.distance, seed.vertex});
    }
  }
  while (!open.empty()) {
    const auto [d, u] = open.top();
    open.pop();
    if (d > dist[u]) continue;  // a stale entry: u was settled nearer
    arcs_of(u, [&](uint32_t to, double length) {
      if (d + length < dist[to]) open.push({dist[to] = d + length, to});
    });
  }
  return dist;
}

}  // namespace waymesh::testing
