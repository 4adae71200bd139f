#include "edge_table.h"

#include <algorithm>

namespace waymesh::repair {
namespace {

struct KeyedHalfEdge {
  uint64_t key;
  uint32_t half_edge;
};

// LSD radix sort on the key, 16 bits a pass, skipping passes where every key agrees: stable,
// so half-edges of one edge stay in increasing id order.
void RadixSortByKey(std::vector<KeyedHalfEdge>* items) {
  // Small inputs: a comparison sort beats clearing the 64K-entry histograms.
  if (items->size() < (1u << 14)) {
    std::sort(items->begin(), items->end(), [](const KeyedHalfEdge& a, const KeyedHalfEdge& b) {
      return a.key != b.key ? a.key < b.key : a.half_edge < b.half_edge;
    });
    return;
  }
  std::vector<KeyedHalfEdge> buffer(items->size());
  std::vector<uint32_t> counts(1 << 16);
  for (int shift = 0; shift < 64; shift += 16) {
    std::fill(counts.begin(), counts.end(), 0);
    for (const KeyedHalfEdge& e : *items) ++counts[(e.key >> shift) & 0xFFFF];
    if (!items->empty() && counts[((*items)[0].key >> shift) & 0xFFFF] == items->size()) continue;
    uint32_t sum = 0;
    for (uint32_t& c : counts) {
      const uint32_t n = c;
      c = sum;
      sum += n;
    }
    for (const KeyedHalfEdge& e : *items) buffer[counts[(e.key >> shift) & 0xFFFF]++] = e;
    items->swap(buffer);
  }
}

}  // namespace

EdgeGroups GroupHalfEdges(const TriangleSoup& soup) {
  const uint32_t half_edges = 3 * soup.triangle_count();
  std::vector<KeyedHalfEdge> items(half_edges);
  for (uint32_t h = 0; h < half_edges; ++h) {
    items[h] = {EdgeKey(HalfEdgeFrom(soup, h), HalfEdgeTo(soup, h)), h};
  }
  RadixSortByKey(&items);
  EdgeGroups groups;
  groups.half_edges.resize(half_edges);
  groups.start.reserve(half_edges / 2 + 2);
  for (uint32_t i = 0; i < half_edges; ++i) {
    groups.half_edges[i] = items[i].half_edge;
    if (i > 0 && items[i].key != items[i - 1].key) groups.start.push_back(i);
  }
  if (half_edges > 0) groups.start.push_back(half_edges);
  return groups;
}

}  // namespace waymesh::repair
