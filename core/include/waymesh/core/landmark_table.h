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
// distance on a map with roads); areas dearer than walking count as 1. A filter that prices
// cheap areas higher than the map does (every area at 1, say) would get a weak bound from
// those rows, so maps with cheap areas also keep rows of plain walking distance, and each
// query uses whichever set bounds its own start and goal better (GoalBound).

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "waymesh/core/nav_map.h"

namespace waymesh {

class QueryFilter;

class LandmarkTable {
  struct Metric;

 public:
  // Landmarks per polygon row (the most a table holds; rows are 32 bytes).
  static constexpr uint32_t kSlots = 16;
  static constexpr uint32_t kDefaultCount = kSlots;
  // Maps with fewer polygons search fast with the plain heuristic: no table is built.
  static constexpr uint32_t kMinPolygons = 1024;

  // One query's bound towards its goal point, in the cost of its filter.
  class GoalBound {
   public:
    // An estimate from below of the cost from any point of polygon `global` (a dense global
    // index) to the goal point; 0 when the table knows nothing better. Out of line: compiled
    // on its own the slot loop vectorises; inlined into the search loop it stays scalar.
    float From(uint32_t global) const;
    // Asks the memory system for what From(global) will read, so that the rows of several
    // polygons arrive in parallel (a query on a large map finds most rows outside the caches).
    void Prefetch(uint32_t global) const {
      if (metric_ == nullptr) return;
      __builtin_prefetch(metric_->rows.data() + size_t(global) * kSlots);
      __builtin_prefetch(metric_->crossing.data() + global);
    }

   private:
    friend class LandmarkTable;
    const Metric* metric_ = nullptr;  // null: no table, the bound is 0
    float scale_ = 0;                 // see FilterScale
    // Per landmark, in steps: the goal polygon's row, and an upper bound of the cost to the
    // goal point (kUnreached: unknown).
    alignas(16) std::array<int16_t, kSlots> goal_row_{};
    alignas(16) std::array<int16_t, kSlots> goal_upper_{};
  };

  // What ForGoal needs to know of the goal: its polygon (global index, and poly of tile), the
  // point, and per edge i (corner i to i + 1) the global index of the polygon across it or
  // kNoNeighbour. A null `tile` bounds the goal anywhere in polygon `global` (the goal is in a
  // piece of it that obstacles carved, whose edges are not the table's).
  static constexpr uint32_t kNoNeighbour = 0xFFFFFFFFu;
  struct Goal {
    uint32_t global;
    const TileView* tile;
    uint32_t poly;
    Vec3 pos;
    std::span<const uint32_t> neighbours;
  };

  // An empty table (no landmarks): every bound is 0.
  LandmarkTable() = default;
  // Up to `count` (at most kSlots) landmarks spread by farthest-point sampling over the largest
  // island group, each with one full-map flood of reference costs (and one of distance on maps
  // with cheap areas). O(count * polygons log polygons).
  static LandmarkTable Build(const NavMap& map, uint32_t count = kDefaultCount);

  uint32_t count() const { return count_; }
  bool empty() const { return count_ == 0; }
  // Whether the table also holds plain walking distances (the map has areas cheaper than 1).
  bool has_distance_rows() const;

  // The bound for one query from polygon `start` to `goal` under `filter`: of the two row
  // sets, the one whose bound between start and goal is larger.
  GoalBound ForGoal(const QueryFilter& filter, uint32_t start, const Goal& goal) const;

  // An estimate from below of the reference cost between any point of polygon `a` and any
  // point of polygon `b`, both given as dense global indices (tile polygon offset + polygon);
  // 0 when the table knows nothing better. It is a true lower bound up to the floods'
  // accuracy: a flood measures taut paths through the corridors it settled, which on rare
  // long routes exceed the optimum by several percent (measured against Polyanya optima).
  // Multiply by FilterScale(filter) for a bound of the cost under `filter`.
  float LowerBound(uint32_t a, uint32_t b) const;

  // The factor that turns a reference-cost bound into a bound of the cost under `filter`: the
  // smallest ratio of the filter's cost to the reference cost over the areas it enables that
  // the map has (1 for the map's own costs). Off-mesh links scale with their area too.
  float FilterScale(const QueryFilter& filter) const;

  // Bytes held by the table.
  size_t bytes() const;

 private:
  // Rows use 15 bits (0 .. kMaxSteps), so that differences fit signed 16-bit lanes.
  static constexpr int16_t kUnreached = 0x7FFF;
  static constexpr int16_t kMaxSteps = kUnreached - 1;

  // One set of floods: costs measured with one set of reference costs.
  struct Metric {
    float step = 0;                 // reference cost per stored unit
    std::vector<int16_t> rows;      // polygon-major: rows[global * kSlots + k], floored
    std::vector<int16_t> crossing;  // per polygon, in steps (rounded up): its diameter at
                                    // its area's reference cost
    std::array<float, kMaxAreas> inverse_costs{};  // per area: 1 / reference cost

    bool empty() const { return rows.empty(); }
    // Lower bound in steps from any point of `a` to a goal given as GoalBound rows.
    int Bound(uint32_t a, const int16_t* goal_row, const int16_t* goal_upper) const;
    // Fills the goal rows of `out` (see GoalBound) for a goal anywhere in polygon `goal`.
    void AnywhereRows(uint32_t goal, GoalBound* out) const;
    // The same for the goal point of `goal` (tighter).
    void GoalRows(const Goal& goal, bool entered_by_link, GoalBound* out) const;
    float Scale(const QueryFilter& filter, uint64_t areas_present) const;
    size_t bytes() const;
  };

  static Metric Measure(const std::vector<std::vector<float>>& floods, const QueryFilter& filter,
                        const NavMap& map);

  uint32_t count_ = 0;
  Metric cost_;      // the map's costs capped at 1
  Metric distance_;  // every area at 1; empty when no area is cheaper (then equal to cost_)
  uint64_t areas_present_ = 0;  // MapDigest::areas_present of the map it was built on
  std::vector<bool> link_end_;  // per polygon: some off-mesh link ends in it
};

}  // namespace waymesh
