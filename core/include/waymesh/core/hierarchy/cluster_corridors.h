#pragma once
// The polygon corridors inside each cluster of a cluster graph (cluster_graph.h) between every
// two of its entrances: the walks whose costs ClusterCosts keeps, so that a long path query
// joins them instead of searching the legs between two entrances. Stored compactly: per pair
// i < j of a cluster's entrance slots, the corner index of the edge each polygon is left by,
// from entrance i's polygon to entrance j's (in that cluster), 4 bits per step. A pair whose
// walk cannot be written so (a polygon left by corner 15 or above, an off-mesh link) is not
// stored; its leg is searched.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace waymesh {

class ClusterCorridors {
 public:
  // Largest corner index a step can hold (4 bits).
  static constexpr uint32_t kMaxCorner = 15;

  // Appends the next cluster (index: the number added before): `k` entrances and, per pair
  // i < j row by row (i = 0: j = 1..k-1, then i = 1, ...), the corner indices from i's
  // polygon to j's, or nullopt for a pair not stored. Corner indices above kMaxCorner make the
  // pair not stored. False (nothing added) when `pairs` does not hold k (k - 1) / 2 pairs or the
  // store would outgrow its 31-bit offsets.
  bool Add(uint32_t k, const std::vector<std::optional<std::vector<uint8_t>>>& pairs);

  // Appends the corner indices of cluster `c`'s corridor between slots min(i, j) and
  // max(i, j) (walking from the lower slot's polygon) to *corners; false when the pair is not
  // stored (or i == j, or the store is empty).
  bool Read(uint32_t c, uint32_t i, uint32_t j, std::vector<uint8_t>* corners) const;

  bool empty() const { return count_.empty(); }
  size_t bytes() const;

 private:
  static constexpr uint32_t kNotStored = 0x80000000u;

  std::vector<size_t> start_;    // per cluster: its first pair
  std::vector<uint32_t> count_;  // per cluster: its entrances
  // Per pair (and one past the last): where its steps start in nibbles_, in steps;
  // kNotStored set when the pair has none. A pair's steps end where the next pair's start.
  std::vector<uint32_t> offset_;
  std::vector<uint8_t> nibbles_;  // two steps per byte, the earlier in the low half
  uint32_t steps_ = 0;
};

}  // namespace waymesh
