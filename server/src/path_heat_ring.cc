#include "waymesh/server/path_heat_ring.h"

#include <algorithm>

#include "absl/hash/hash.h"

namespace waymesh::server {
namespace {

uint64_t HeatMapHash(std::string_view map_id) { return absl::HashOf(map_id); }

}  // namespace

PathHeatRing::PathHeatRing(size_t capacity)
    : capacity_(std::max<size_t>(capacity, 1)), slots_(new Slot[capacity_]) {
  for (size_t i = 0; i < capacity_; ++i) {
    for (auto& c : slots_[i].coords) c.store(0, std::memory_order_relaxed);
  }
}

void PathHeatRing::Record(std::string_view map_id, const Vec3& start, const Vec3& end,
                          QueryStatus status) {
  const uint64_t ticket = next_.fetch_add(1, std::memory_order_relaxed);
  Slot& slot = slots_[ticket % capacity_];
  // seq = 2 * ticket + 1 while writing, 2 * ticket + 2 when done: a reader that sees the same
  // even value before and after its copy has a whole record. A writer claims the slot first; one
  // that finds it being written (the ring went round during a write) drops its record rather
  // than wait: a heat map can miss a call, the query path must never wait.
  uint64_t seen = slot.seq.load(std::memory_order_relaxed);
  if ((seen & 1) != 0 ||
      !slot.seq.compare_exchange_strong(seen, 2 * ticket + 1, std::memory_order_relaxed)) {
    return;
  }
  // Release stores (no fences, which ThreadSanitizer cannot follow): a reader that sees any of
  // them sees the odd seq above too, and so a changed seq after its copy.
  slot.map_hash.store(HeatMapHash(map_id), std::memory_order_release);
  const float values[6] = {start.x, start.y, start.z, end.x, end.y, end.z};
  for (int i = 0; i < 6; ++i) slot.coords[i].store(values[i], std::memory_order_release);
  slot.status.store(static_cast<uint8_t>(status), std::memory_order_release);
  slot.seq.store(2 * ticket + 2, std::memory_order_release);
}

std::vector<PathHeatPoint> PathHeatRing::Snapshot(std::string_view map_id) const {
  const uint64_t hash = HeatMapHash(map_id);
  const uint64_t end = next_.load(std::memory_order_acquire);
  const uint64_t begin = end > capacity_ ? end - capacity_ : 0;
  std::vector<PathHeatPoint> out;
  for (uint64_t ticket = begin; ticket < end; ++ticket) {
    const Slot& slot = slots_[ticket % capacity_];
    const uint64_t before = slot.seq.load(std::memory_order_acquire);
    // Being written, or still holding a call older than the ring (a later one is taken).
    if ((before & 1) != 0 || before < 2 * begin + 2) continue;
    const uint64_t slot_hash = slot.map_hash.load(std::memory_order_acquire);
    float v[6];
    for (int i = 0; i < 6; ++i) v[i] = slot.coords[i].load(std::memory_order_acquire);
    const auto status = static_cast<QueryStatus>(slot.status.load(std::memory_order_acquire));
    if (slot.seq.load(std::memory_order_relaxed) != before || slot_hash != hash) continue;
    out.push_back({{v[0], v[1], v[2]}, {v[3], v[4], v[5]}, status});
  }
  return out;
}

}  // namespace waymesh::server
