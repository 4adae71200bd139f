#pragma once
// Landmark distances for the A* heuristic (the "ALT" technique): walking costs from a few
// well-spread landmark points to every polygon. The triangle inequality turns two table rows into
// a lower bound of the cost between any two polygons that sees around obstacles, where the
// straight-line distance does not; on maps with many obstacles A* then expands far fewer nodes.
// Built once per map (NavMap::landmarks) and shared read-only by every query object.
//
// Costs are measured with the map's area costs capped at 1 (the "reference costs"). Areas
// cheaper than walking (roads at 0.5) then count at their real price, so queries with the
// map's own costs get a tight bound instead of distance times the cheapest cost (half the
// distance on a map with roads); areas dearer than walking count as 1, so a filter that prices
// every area at 1 still gets nearly the plain walking-distance bound.

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "waymesh/core/nav_map.h"

namespace waymesh {

class QueryFilter;

class LandmarkTable {
 public:
  // Landmarks per polygon row (the most a table holds; rows are 32 bytes).
  static constexpr uint32_t kSlots = 16;
  static constexpr uint32_t kDefaultCount = kSlots;
  // Maps with fewer polygons search fast with the plain heuristic: no table is built.
  static constexpr uint32_t kMinPolygons = 1024;

  // An empty table (no landmarks): LowerBound is always 0.
  LandmarkTable() = default;
  // Up to `count` (at most kSlots) landmarks spread by farthest-point sampling over the largest
  // island group, each with one full-map flood of reference costs. O(count * polygons log
  // polygons).
  static LandmarkTable Build(const NavMap& map, uint32_t count = kDefaultCount);

  uint32_t count() const { return count_; }
  bool empty() const { return count_ == 0; }

  // An estimate from below of the reference cost between any point of polygon `a` and any
  // point of polygon `b`, both given as dense global indices (tile polygon offset + polygon);
  // 0 when the table knows nothing better. It is a true lower bound up to the floods'
  // accuracy: a flood measures taut paths through the corridors it settled, which on rare
  // long routes exceed the optimum by several percent (measured against Polyanya optima).
  // Multiply by FilterScale(filter) for a bound of the cost under `filter`.
  // Out of line: compiled on its own the slot loop vectorises; inlined into the search loop
  // the compiler keeps it scalar.
  float LowerBound(uint32_t a, uint32_t b) const;

  // The factor that turns a reference-cost bound into a bound of the cost under `filter`: the
  // smallest ratio of the filter's cost to the reference cost over the areas it enables that
  // the map has (1 for the map's own costs). Off-mesh links scale with their area too.
  float FilterScale(const QueryFilter& filter) const;

  // Bytes held by the table.
  size_t bytes() const { return rows_.size() * sizeof(int16_t) + crossing_.size() * sizeof(float); }

 private:
  // Rows use 15 bits (0 .. kMaxSteps), so that differences fit signed 16-bit lanes.
  static constexpr int16_t kUnreached = 0x7FFF;
  static constexpr int16_t kMaxSteps = kUnreached - 1;

  uint32_t count_ = 0;
  float step_ = 0;               // reference cost per stored unit
  std::vector<int16_t> rows_;    // polygon-major: rows_[global * kSlots + k], floored
  std::vector<float> crossing_;  // per polygon: its diameter times its area's reference cost
  std::array<float, kMaxAreas> inverse_reference_costs_{};  // per area: 1 / min(map cost, 1)
  uint64_t areas_present_ = 0;  // MapDigest::areas_present of the map it was built on
};

}  // namespace waymesh
