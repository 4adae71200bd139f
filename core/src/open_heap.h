#pragma once
// The A* open list: a radix heap of (key, node). A* and Dijkstra pop keys that never decrease,
// and a radix heap uses that: it files each entry in one of 33 buckets by the highest bit in
// which its key differs from the last key popped, so a push is O(1) with no sifting and a pop
// only re-files the entries of the lowest bucket - on the search's keys several times cheaper
// than a d-ary heap's sift-down, whose every level waits on an unpredictable comparison.
// Keys are non-negative floats compared through their bit patterns (ordered like the floats).
// A key below the last popped one (an inconsistent heuristic can push one) is filed as equal
// to it: it comes out with the entries tied at that key, before any larger one. There is no
// decrease-key: an improved node is pushed again and the caller skips stale entries on pop.

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace waymesh::internal {

class OpenHeap {
 public:
  struct Entry {
    float key;
    uint32_t node;
  };

  // Reserves room for `capacity` entries in the first buckets a search fills.
  explicit OpenHeap(uint32_t capacity);

  void Clear();
  bool Empty() const { return size_ == 0; }
  uint32_t size() const { return size_; }
  // Inserts `node` with `key` (>= 0; the node may already be in the heap with another key).
  // Inline: the search pushes once per relaxed neighbour.
  void Push(uint32_t node, float key) {
    const uint32_t bits = std::max(OrderedBits(key), last_);
    File(Filed{bits, Entry{key, node}});
    ++size_;
  }
  // Removes and returns an entry with the smallest key.
  Entry Pop();

 private:
  struct Filed {
    uint32_t bits;  // max(key, last popped) as ordered bits
    Entry entry;
  };
  static constexpr int kBuckets = 33;

  // Bucket of an entry whose ordered key bits are `bits` (>= last_).
  int BucketOf(uint32_t bits) const { return bits == last_ ? 0 : 32 - __builtin_clz(bits ^ last_); }
  // Non-negative floats order like their bit patterns; -0 becomes +0.
  static uint32_t OrderedBits(float key) { return std::bit_cast<uint32_t>(key + 0.0f); }
  // Appends `f` to its bucket.
  void File(const Filed& f) {
    const int b = BucketOf(f.bits);
    buckets_[b].push_back(f);
    filled_ |= uint64_t{1} << b;
  }
  // Moves the entries of the lowest non-empty bucket down so that bucket 0 holds the minimum.
  void Refill();

  std::array<std::vector<Filed>, kBuckets> buckets_;
  uint64_t filled_ = 0;  // bit b: bucket b may be non-empty (exact except bucket 0's, see Pop)
  uint32_t last_ = 0;    // bits of the last popped key (0 after Clear)
  uint32_t size_ = 0;
  size_t head_ = 0;  // next entry of bucket 0: ties leave first in, first out
};

}  // namespace waymesh::internal
