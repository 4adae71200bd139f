#pragma once
// Groups the half-edges of a triangle soup by undirected edge (same two vertices), by sorting
// 64-bit edge keys: O(n log n), no hashing, deterministic order.

#include <cstdint>
#include <span>
#include <vector>

#include "triangle_soup.h"

namespace waymesh::repair {

// Undirected key of the edge between vertices a and b.
inline uint64_t EdgeKey(uint32_t a, uint32_t b) {
  return a < b ? (uint64_t{a} << 32 | b) : (uint64_t{b} << 32 | a);
}

// CSR groups: group g holds half_edges[start[g] .. start[g + 1]), sorted by half-edge id;
// groups are in increasing key order.
struct EdgeGroups {
  std::vector<uint32_t> half_edges;
  std::vector<uint32_t> start{0};

  uint32_t group_count() const { return uint32_t(start.size() - 1); }
  std::span<const uint32_t> group(uint32_t g) const {
    return std::span<const uint32_t>(half_edges).subspan(start[g], start[g + 1] - start[g]);
  }
};

EdgeGroups GroupHalfEdges(const TriangleSoup& soup);

}  // namespace waymesh::repair
