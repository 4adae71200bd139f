#include "open_heap.h"

#include <algorithm>

namespace waymesh::internal {

OpenHeap::OpenHeap(uint32_t capacity) : heap_(std::max<uint32_t>(capacity, 1)) {}

void OpenHeap::Push(uint32_t node, float key) {
  // Growth happens only when many improved nodes are pushed twice, and keeps its capacity.
  if (size_ == heap_.size()) heap_.resize(heap_.size() * 2);
  SiftUp(size_++, Entry{key, node});
}

OpenHeap::Entry OpenHeap::Pop() {
  const Entry top = heap_[0];
  const Entry last = heap_[--size_];
  if (size_ > 0) SiftDown(0, last);
  return top;
}

void OpenHeap::SiftUp(uint32_t i, Entry e) {
  while (i > 0) {
    const uint32_t parent = (i - 1) / 4;
    if (!(e.key < heap_[parent].key)) break;
    heap_[i] = heap_[parent];
    i = parent;
  }
  heap_[i] = e;
}

void OpenHeap::SiftDown(uint32_t i, Entry e) {
  for (;;) {
    const uint32_t first = 4 * i + 1;
    if (first >= size_) break;
    uint32_t best = first;
    if (first + 4 <= size_) {
      // All four children: a tournament of selects (no data-dependent branches, which the
      // search's keys would mispredict half the time).
      const Entry* c = &heap_[first];
      const uint32_t low01 = c[1].key < c[0].key ? 1 : 0;
      const uint32_t low23 = c[3].key < c[2].key ? 3 : 2;
      best = first + (c[low23].key < c[low01].key ? low23 : low01);
    } else {
      for (uint32_t c = first + 1; c < size_; ++c) {
        if (heap_[c].key < heap_[best].key) best = c;
      }
    }
    if (!(heap_[best].key < e.key)) break;
    heap_[i] = heap_[best];
    i = best;
  }
  heap_[i] = e;
}

}  // namespace waymesh::internal
