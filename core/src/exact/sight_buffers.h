#pragma once
// The reusable state of the sight flood (sight_flood.h), owned by a QueryContext beside the
// interval search's: vectors keep their capacity between floods.

#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "waymesh/core/poly_index.h"

namespace waymesh::internal::exact {

// Part [lo, hi] of a polygon's edge that the flood's seed sees, the edge running from the
// polygon's corner `corner_a` (t = 0) to the next corner (t = 1).
struct SightPiece {
  uint32_t corner_a = 0;
  double lo = 0, hi = 1;
};

// A polygon the flood entered: the parts of its edges waiting to be looked through, and the
// parts already looked through (never again: one seed sees each point along one ray).
struct SightPolygon {
  PolyIndex poly;
  bool seed = false;  // holds the seed, which sees it whole
  // Distance from the seed to the nearest pending part, infinity when none is pending.
  double key = std::numeric_limits<double>::infinity();
  std::vector<SightPiece> pending;
  std::vector<SightPiece> done;
};

struct SightBuffers {
  std::vector<SightPolygon> polygons;  // the first `entered` belong to the current flood
  uint32_t entered = 0;
  // Per polygon (QueryContext::Global): its index in `polygons` when `stamp` is this flood's.
  struct SlotOf {
    uint32_t stamp = 0;
    uint32_t slot = 0;
  };
  std::vector<SlotOf> slot_of;
  std::vector<std::pair<double, uint32_t>> heap;  // (key, polygons index), min first
  std::vector<SightPiece> pieces;                 // scratch: the polygon being expanded
  std::vector<uint32_t> corner_stamp;             // per corner id: the flood that recorded it
  uint32_t stamp = 0;                             // the current flood's
  uint32_t pieces_expanded = 0;                   // merged pieces looked through by the last flood
};

}  // namespace waymesh::internal::exact
