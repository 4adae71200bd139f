#include "exact/sent_intervals.h"

#include "exact/stamped_slots.h"

namespace waymesh::internal::exact {
namespace {

constexpr uint32_t kInitialSentSlots = 1024;
// Edge parameters within this of an end of a sent part count as inside it.
constexpr double kSentOverlap = 1e-9;

}  // namespace

void SentIntervals::Reset() { StartStamp(&entries_, &stamp_, &used_, kInitialSentSlots); }

uint32_t SentIntervals::Hash(uint32_t root, PolyIndex poly, uint32_t edge) {
  uint64_t h = root;
  h = h * 0x9E3779B97F4A7C15ull ^ poly.poly;
  h = h * 0x9E3779B97F4A7C15ull ^ poly.tile;
  h = h * 0x9E3779B97F4A7C15ull ^ edge;
  return uint32_t((h * 0xBF58476D1CE4E5B9ull) >> 32);
}

Range SentIntervals::Claim(uint32_t root, PolyIndex poly, uint32_t edge, Range range) {
  const uint32_t mask = uint32_t(entries_.size() - 1);
  for (uint32_t i = Hash(root, poly, edge) & mask; entries_[i].stamp == stamp_;
       i = (i + 1) & mask) {
    const Entry& e = entries_[i];
    if (!e.Matches(root, poly, edge)) continue;
    const bool covers_lo = e.range.lo <= range.lo + kSentOverlap;
    const bool covers_hi = e.range.hi >= range.hi - kSentOverlap;
    if (covers_lo && covers_hi) return Range{1, 0};
    if (covers_lo && e.range.hi > range.lo) range.lo = e.range.hi;
    if (covers_hi && e.range.lo < range.hi) range.hi = e.range.lo;
    if (!(range.lo < range.hi)) return Range{1, 0};
  }
  Insert(Entry{root, poly.tile, poly.poly, edge, stamp_, range});
  return range;
}

void SentIntervals::Insert(const Entry& entry) {
  if (2 * (used_ + 1) > entries_.size()) Grow();
  const uint32_t mask = uint32_t(entries_.size() - 1);
  uint32_t i = Hash(entry.root, PolyIndex{entry.tile, entry.poly}, entry.edge) & mask;
  while (entries_[i].stamp == stamp_) i = (i + 1) & mask;
  entries_[i] = entry;
  ++used_;
}

void SentIntervals::Grow() {
  std::vector<Entry> old(entries_.size() * 2);
  old.swap(entries_);
  used_ = 0;
  for (const Entry& e : old) {
    if (e.stamp == stamp_) Insert(e);
  }
}

}  // namespace waymesh::internal::exact
