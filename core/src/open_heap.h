#pragma once
// The A* open list: a 4-ary min-heap of (key, node). Keys sit beside node ids so sifting touches
// one contiguous array; a 4-ary heap halves the depth of a binary one. There is no
// decrease-key: an improved node is pushed again and the caller skips stale entries on pop,
// which avoids maintaining a node -> heap position table (random writes on every sift).

#include <cstdint>
#include <vector>

namespace waymesh::internal {

class OpenHeap {
 public:
  struct Entry {
    float key;
    uint32_t node;
  };

  // Reserves room for `capacity` entries (grows beyond that if needed, rarely).
  explicit OpenHeap(uint32_t capacity);

  void Clear() { size_ = 0; }
  bool Empty() const { return size_ == 0; }
  uint32_t size() const { return size_; }
  // Inserts `node` with `key` (the node may already be in the heap with another key).
  void Push(uint32_t node, float key);
  // Removes and returns the entry with the smallest key.
  Entry Pop();

 private:
  void SiftUp(uint32_t i, Entry e);
  void SiftDown(uint32_t i, Entry e);

  std::vector<Entry> heap_;
  uint32_t size_ = 0;
};

}  // namespace waymesh::internal
