#include "root_table.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "exact/stamped_slots.h"

namespace waymesh::internal::exact {
namespace {

constexpr uint32_t kInitialSlots = 1024;

uint64_t HashPosition(Vec3 p) {
  uint64_t h = std::bit_cast<uint32_t>(p.x);
  h = h * 0x9E3779B97F4A7C15ull ^ std::bit_cast<uint32_t>(p.y);
  h = h * 0x9E3779B97F4A7C15ull ^ std::bit_cast<uint32_t>(p.z);
  return h * 0xBF58476D1CE4E5B9ull;
}

}  // namespace

void RootTable::Reset() { StartStamp(&entries_, &stamp_, &used_, kInitialSlots); }

uint32_t RootTable::Slot(Vec3 pos) const {
  const uint32_t mask = uint32_t(entries_.size() - 1);
  uint32_t i = uint32_t(HashPosition(pos) >> 32) & mask;
  while (entries_[i].stamp == stamp_ && !(entries_[i].key == pos)) i = (i + 1) & mask;
  return i;
}

double RootTable::Best(Vec3 pos) const {
  const Entry& e = entries_[Slot(pos)];
  return e.stamp == stamp_ ? e.g : std::numeric_limits<double>::infinity();
}

bool RootTable::Improve(Vec3 pos, double g, double slack) {
  Entry* e = &entries_[Slot(pos)];
  if (e->stamp == stamp_) {
    if (e->g + slack < g) return false;
    e->g = std::min(e->g, g);
    return true;
  }
  if (2 * (used_ + 1) > entries_.size()) {
    Grow();
    e = &entries_[Slot(pos)];
  }
  *e = Entry{pos, stamp_, g};
  ++used_;
  return true;
}

void RootTable::Grow() {
  std::vector<Entry> old(entries_.size() * 2);
  old.swap(entries_);
  for (const Entry& e : old) {
    if (e.stamp == stamp_) entries_[Slot(e.key)] = e;
  }
}

}  // namespace waymesh::internal::exact
