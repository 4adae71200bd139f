#pragma once
// The cheapest cost at which the current search reached each turning point (a mesh vertex),
// keyed by position so that a vertex repeated in two tiles at a seam is one root. Open
// addressing with per-entry query stamps: starting a query is O(1) and a warm table never
// allocates.

#include <cstdint>
#include <vector>

#include "waymesh/core/vec3.h"

namespace waymesh::internal::exact {

class RootTable {
 public:
  // Forgets every entry.
  void Reset();
  // Records that `pos` was reached at cost g; false (and nothing recorded) when it was
  // already reached more than `slack` more cheaply. Ties pass: reaching a corner again at the
  // same cost from its other side opens polygons the first arrival does not.
  bool Improve(Vec3 pos, double g, double slack);
  // The cheapest cost recorded for `pos`, or +infinity.
  double Best(Vec3 pos) const;

 private:
  struct Entry {
    Vec3 key;
    uint32_t stamp = 0;
    double g = 0;
  };
  // Slot of `pos`: its entry, or the empty slot where it would go.
  uint32_t Slot(Vec3 pos) const;
  void Grow();

  std::vector<Entry> entries_;
  uint32_t stamp_ = 0;
  uint32_t used_ = 0;
};

}  // namespace waymesh::internal::exact
