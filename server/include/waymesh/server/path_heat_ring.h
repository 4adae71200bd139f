#pragma once
// The start and end points of the last FindPath calls the server answered, with how each ended
// (COMPLETE, NO_PATH, START_OFF_MESH, ...), for the viewer's heat map. Recording is wait-free
// and touches no lock (an atomic increment, a compare-and-swap claiming the slot and a slot of
// release stores), so the query path does not notice it; readers copy the ring and skip slots
// being written (a seqlock per slot). Best effort: a record whose slot is being written by a
// call one ring earlier is dropped.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include "waymesh/core/query_status.h"
#include "waymesh/core/vec3.h"

namespace waymesh::server {

// One answered FindPath as the heat map draws it.
struct PathHeatPoint {
  Vec3 start;
  Vec3 end;
  QueryStatus status = QueryStatus::kComplete;
};

class PathHeatRing {
 public:
  // Keeps the last `capacity` (>= 1) calls over all maps.
  explicit PathHeatRing(size_t capacity);

  // Records one answered call on map `map_id`. Thread-safe, wait-free.
  void Record(std::string_view map_id, const Vec3& start, const Vec3& end, QueryStatus status);
  // The calls on `map_id` still in the ring, by slot (oldest first unless the ring went round
  // during the copy). Thread-safe.
  std::vector<PathHeatPoint> Snapshot(std::string_view map_id) const;
  size_t capacity() const { return capacity_; }
  // Calls recorded since start (over all maps).
  uint64_t recorded() const { return next_.load(std::memory_order_relaxed); }

 private:
  // Every field atomic so concurrent reads are defined; `seq` is odd while a write is going on.
  struct Slot {
    std::atomic<uint64_t> seq{0};
    std::atomic<uint64_t> map_hash{0};
    std::atomic<float> coords[6];
    std::atomic<uint8_t> status{0};
  };

  const size_t capacity_;
  std::unique_ptr<Slot[]> slots_;
  std::atomic<uint64_t> next_{0};
};

}  // namespace waymesh::server
