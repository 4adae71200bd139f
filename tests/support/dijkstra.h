#pragma once
// A plain Dijkstra: the oracle that tests of faster distance structures (the corner graph's
// searches, hub labels) compare against. Written for obviousness, not speed.

#include <cstdint>
#include <span>
#include <vector>

#include "absl/functional/function_ref.h"

namespace waymesh::testing {

// A vertex the search starts from, already at `distance`.
struct DijkstraSeed {
  uint32_t vertex = 0;
  double distance = 0;
};

// Called once for each arc leaving a vertex.
using ArcVisitor = absl::FunctionRef<void(uint32_t to, double length)>;
// Calls `visit` for every arc leaving `vertex`: the graph, whatever holds it.
using ArcsOf = absl::FunctionRef<void(uint32_t vertex, ArcVisitor visit)>;

// The least distance to each of the `vertices` from any seed; infinity where no seed reaches.
// Lengths must be non-negative.
std::vector<double> DijkstraDistances(uint32_t vertices, std::span<const DijkstraSeed> seeds,
                                      ArcsOf arcs_of);

}  // namespace waymesh::testing
