#pragma once
// The walking costs between the entrances of each cluster of a cluster graph
// (cluster_graph.h), stored compactly: a pair's cost is the same both ways, so a cluster keeps
// only the pairs i < j of its entrances, each in 16 bits, in steps of the cluster's largest
// cost / 65534 rounded up (a stored cost is not below the measured one, up to float rounding,
// and above it by at most a 65534th of the cluster's largest cost: millimetres on 64 m tiles).

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "waymesh/core/hierarchy/entrance_pair.h"

namespace waymesh {

class ClusterCosts {
 public:
  // Appends the next cluster (index: the number added before): `k` entrances and their k x k
  // costs row by row (INFINITY: not connected); block[i * k + j] must equal block[j * k + i].
  void Add(uint32_t k, const float* block);

  // The cost inside cluster `c` between its entrances in slots `i` and `j` (0 when i == j,
  // INFINITY when not connected inside the cluster).
  float Cost(uint32_t c, uint32_t i, uint32_t j) const {
    if (i == j) return 0.0f;
    const uint16_t code = codes_[start_[c] + EntrancePairIndex(count_[c], i, j)];
    return code == kNotConnected ? kInfinity : float(code) * step_[c];
  }

  size_t bytes() const;

 private:
  static constexpr uint16_t kNotConnected = 0xFFFF;
  static constexpr uint16_t kLargestCode = 0xFFFE;
  static constexpr float kInfinity = std::numeric_limits<float>::infinity();

  std::vector<size_t> start_;    // per cluster: its first pair in codes_
  std::vector<uint32_t> count_;  // per cluster: its entrances
  std::vector<float> step_;      // per cluster: metres (cost units) per code
  std::vector<uint16_t> codes_;  // per cluster, pairs i < j row by row
};

}  // namespace waymesh
