#pragma once
// The queries both libraries answer: Polyanya's published scenarios with their optimal
// lengths, or random reachable pairs on a map without published answers.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/vec3.h"

namespace waymesh::bench {

struct QueryCase {
  Vec3 start;
  Vec3 goal;
  double optimum = -1;  // published optimal length (metres); negative when unknown
};

// Reads a Polyanya `*_expected.csv` (`sx sy gx gy length`, `#` comments); 2D (x, y) maps to
// (x, 0, y) like the `.mesh` importer. Errors name file:line.
absl::StatusOr<std::vector<QueryCase>> LoadPolyanyaExpected(const std::string& path);

// `count` start/goal pairs drawn uniformly by area (same seed, same pairs), each pair on one
// island, so a path exists without off-mesh links. Fewer when the map has no surface.
std::vector<QueryCase> RandomReachablePairs(NavQuery& query, uint32_t count, uint64_t seed);

}  // namespace waymesh::bench
