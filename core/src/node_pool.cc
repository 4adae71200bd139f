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

void NodePool::Reuse(uint32_t polygons) {
  // Slots past the old size start stale (generation 0 never matches); Reset makes every old
  // slot stale too, whatever polygon it stood for.
  if (polygons > slots_.size()) slots_.resize(polygons, Slot{0, kNoNode});
  Reset();
}

}  // namespace waymesh::internal
