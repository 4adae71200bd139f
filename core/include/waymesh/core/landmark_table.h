#pragma once
// Landmark distances for the A* heuristic (the "ALT" technique): walking distances from a few
// well-spread landmark points to every polygon. The triangle inequality turns two table rows into
// a lower bound of the distance between any two polygons that sees around obstacles, where the
// straight-line distance does not; on maps with many obstacles A* then expands far fewer nodes.
// Built once per map (NavMap::landmarks) and shared read-only by every query object.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace waymesh {

class NavMap;

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
  // island group, each with one full-map flood of walking distances. O(count * polygons log
  // polygons).
  static LandmarkTable Build(const NavMap& map, uint32_t count = kDefaultCount);

  uint32_t count() const { return count_; }
  bool empty() const { return count_ == 0; }

  // An estimate from below of the walking distance between any point of polygon `a` and any
  // point of polygon `b`, both given as dense global indices (tile polygon offset + polygon);
  // 0 when the table knows nothing better. It is a true lower bound up to the floods'
  // accuracy: a flood measures taut paths through the corridors it settled, which on rare
  // long routes exceed the optimum by several percent (measured against Polyanya optima).
  float LowerBound(uint32_t a, uint32_t b) const {
    if (count_ == 0) return 0.0f;
    const uint16_t* ra = &rows_[size_t(a) * kSlots];
    const uint16_t* rb = &rows_[size_t(b) * kSlots];
    // Branch-free over a fixed number of slots so the compiler vectorises it; unused slots and
    // unreached polygons hold kUnreached and contribute 0.
    int a_farther = 0, b_farther = 0;
    for (uint32_t k = 0; k < kSlots; ++k) {
      const int va = ra[k], vb = rb[k];
      const int known = (va != kUnreached) & (vb != kUnreached);
      const int diff = (va - vb) * known;
      a_farther = diff > a_farther ? diff : a_farther;
      b_farther = -diff > b_farther ? -diff : b_farther;
    }
    // Each row holds the distance to the polygon's nearest point, floored to a step: a point of
    // the nearer polygon may lie up to its diameter further, and the floors cost one step.
    const float via_a = float(a_farther - 1) * step_ - diameter_[b];
    const float via_b = float(b_farther - 1) * step_ - diameter_[a];
    const float bound = via_a > via_b ? via_a : via_b;
    return bound > 0 ? bound : 0.0f;
  }

  // Bytes held by the table.
  size_t bytes() const {
    return rows_.size() * sizeof(uint16_t) + diameter_.size() * sizeof(float);
  }

 private:
  static constexpr uint16_t kUnreached = 0xFFFF;
  static constexpr float kShrink = 0.8f;

  uint32_t count_ = 0;
  float step_ = 0;               // metres per stored unit
  std::vector<uint16_t> rows_;   // polygon-major: rows_[global * kSlots + k], floored
  std::vector<float> diameter_;  // per polygon: largest distance between two corners
};

}  // namespace waymesh
