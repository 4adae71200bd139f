#pragma once
// Per-query memo of IsTurnCorner verdicts by (tile, polygon, corner): many nodes reach the
// same corner, and each verdict walks the polygons round it. Open addressing with per-entry
// query stamps, so starting a query is O(1) and a warm cache never allocates.

#include <cstdint>
#include <optional>
#include <vector>

#include "waymesh/core/poly_index.h"

namespace waymesh::internal::exact {

class CornerCache {
 public:
  // Forgets every verdict.
  void Reset();
  // The verdict stored for corner `corner` of `poly`, if any.
  std::optional<bool> Find(PolyIndex poly, uint32_t corner) const;
  // Stores a verdict (not stored before in this query).
  void Store(PolyIndex poly, uint32_t corner, bool turn);

 private:
  struct Entry {
    uint64_t key = 0;
    uint32_t stamp = 0;
    bool turn = false;
  };
  uint32_t SlotOf(uint64_t key) const;

  std::vector<Entry> entries_;
  uint32_t stamp_ = 0;
  uint32_t used_ = 0;
};

}  // namespace waymesh::internal::exact
