#include "node_pool.h"

#include <algorithm>

namespace waymesh::internal {

NodePool::NodePool(uint32_t polygons, uint32_t capacity)
    : slots_(polygons, Slot{0, kNoNode}), nodes_(std::max<uint32_t>(capacity, 1)) {}

void NodePool::Reset() {
  used_ = 0;
  if (++generation_ == 0) {
    // Wrapped: stale stamps could now match, so clear them once.
    std::fill(slots_.begin(), slots_.end(), Slot{0, kNoNode});
    generation_ = 1;
  }
}

uint32_t NodePool::Create(uint32_t global, uint32_t tile, uint32_t poly) {
  if (used_ == nodes_.size()) return kNoNode;
  const uint32_t i = used_++;
  slots_[global] = Slot{generation_, i};
  SearchNode& n = nodes_[i];
  n.g = 0;
  n.f = 0;
  n.tile = tile;
  n.poly = poly;
  n.parent = kNoNode;
  n.via = kViaStart;
  n.state = kNodeNew;
  n.expanded = false;
  return i;
}

}  // namespace waymesh::internal
