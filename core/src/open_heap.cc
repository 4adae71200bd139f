#include "open_heap.h"

#include <algorithm>
#include <bit>

namespace waymesh::internal {
OpenHeap::OpenHeap(uint32_t capacity) {
  // Most entries of a search sit in bucket 0 (ties at the last popped key) or in the high
  // buckets (far from it): capacity/8 for bucket 0 and capacity/32 for every other bucket
  // (12-byte entries: about 14 bytes per node of capacity in all) cover typical searches, so
  // warm ones do not allocate; a bucket that needs more grows once and keeps its size.
  buckets_[0].reserve(std::max<uint32_t>(capacity / 8, 1));
  for (int b = 1; b < kBuckets; ++b) buckets_[b].reserve(std::max<uint32_t>(capacity / 32, 1));
}

void OpenHeap::Clear() {
  for (uint64_t m = filled_; m != 0; m &= m - 1) buckets_[std::countr_zero(m)].clear();
  filled_ = 0;
  last_ = 0;
  size_ = 0;
  head_ = 0;
}

OpenHeap::Entry OpenHeap::Pop() {
  std::vector<Filed>& ties = buckets_[0];
  if (head_ == ties.size()) {
    ties.clear();
    head_ = 0;
    filled_ &= ~uint64_t{1};
    Refill();
  }
  --size_;
  return ties[head_++].entry;
}

void OpenHeap::Refill() {
  // The lowest filled bucket above 0 (the caller ensures the heap is not empty).
  const int b = std::countr_zero(filled_ & ~uint64_t{1});
  std::vector<Filed>& from = buckets_[b];
  uint32_t least = from[0].bits;
  for (const Filed& f : from) least = std::min(least, f.bits);
  last_ = least;
  // Every entry lands in a lower bucket: they agree with the new minimum above bit b-1.
  filled_ &= ~(uint64_t{1} << b);
  for (const Filed& f : from) File(f);
  from.clear();
}

}  // namespace waymesh::internal
