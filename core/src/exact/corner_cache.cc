#include "exact/corner_cache.h"

#include "exact/stamped_slots.h"

namespace waymesh::internal::exact {
namespace {

constexpr uint32_t kCornerCacheSlots = 1024;

// Tiles and polygons fit 28 bits each in any map this cache meets; corners 8 (at most 64).
uint64_t CornerKey(PolyIndex poly, uint32_t corner) {
  return (uint64_t(poly.tile) << 36) ^ (uint64_t(poly.poly) << 8) ^ corner;
}

}  // namespace

void CornerCache::Reset() { StartStamp(&entries_, &stamp_, &used_, kCornerCacheSlots); }

uint32_t CornerCache::SlotOf(uint64_t key) const {
  const uint32_t mask = uint32_t(entries_.size() - 1);
  uint32_t i = uint32_t((key * 0x9E3779B97F4A7C15ull) >> 40) & mask;
  while (entries_[i].stamp == stamp_ && entries_[i].key != key) i = (i + 1) & mask;
  return i;
}

std::optional<bool> CornerCache::Find(PolyIndex poly, uint32_t corner) const {
  const Entry& e = entries_[SlotOf(CornerKey(poly, corner))];
  if (e.stamp != stamp_) return std::nullopt;
  return e.turn;
}

void CornerCache::Store(PolyIndex poly, uint32_t corner, bool turn) {
  if (2 * (used_ + 1) > entries_.size()) {
    // Rehash into twice the slots (a cold query only).
    std::vector<Entry> old(entries_.size() * 2);
    old.swap(entries_);
    for (const Entry& e : old) {
      if (e.stamp == stamp_) entries_[SlotOf(e.key)] = e;
    }
  }
  const uint64_t key = CornerKey(poly, corner);
  entries_[SlotOf(key)] = Entry{key, stamp_, turn};
  ++used_;
}

}  // namespace waymesh::internal::exact
