#pragma once
// The parts of polygon edges each root has already sent an interval across, in the current
// search. From one root every point of an edge is seen along one straight ray only, so two
// intervals of one root over the same part of one edge can only come from float rounding
// (cones collapsed onto a line of corners collinear only to float precision, as carving
// leaves along its cuts and the demo town along its streets) and would let that root circle
// the same polygons for ever. Open addressing with per-entry
// query stamps, as RootTable: starting a query is O(1) and a warm table never allocates.

#include <cstdint>
#include <vector>

#include "exact/interval_geometry.h"
#include "waymesh/core/poly_index.h"

namespace waymesh::internal::exact {

class SentIntervals {
 public:
  // Forgets every entry.
  void Reset();
  // The part of `range` (parameters of edge `edge` of `poly`, from its corner `edge` to the
  // next) that `root` has not sent across yet, recorded as sent; empty when all of it was.
  // A part already sent on both sides of `range` leaves it whole (a rare split is cheaper
  // than two entries).
  Range Claim(uint32_t root, PolyIndex poly, uint32_t edge, Range range);

 private:
  struct Entry {
    uint32_t root = 0, tile = 0, poly = 0, edge = 0;
    uint32_t stamp = 0;
    Range range;
    bool Matches(uint32_t r, PolyIndex p, uint32_t e) const {
      return root == r && poly == p.poly && tile == p.tile && edge == e;
    }
  };
  static uint32_t Hash(uint32_t root, PolyIndex poly, uint32_t edge);
  void Insert(const Entry& entry);
  void Grow();

  std::vector<Entry> entries_;
  uint32_t stamp_ = 0;
  uint32_t used_ = 0;
};

}  // namespace waymesh::internal::exact
