#pragma once
// Where the pair of entrance slots (i, j), i != j, of a cluster with `k` entrances sits among
// that cluster's pairs when only i < j are kept, row by row: the shared layout of ClusterCosts
// and ClusterCorridors.

#include <cstddef>
#include <cstdint>

namespace waymesh {

// The index of pair (i, j) (either order, i != j) among a cluster's k (k - 1) / 2 pairs.
inline size_t EntrancePairIndex(uint32_t k, uint32_t i, uint32_t j) {
  if (i > j) {
    const uint32_t t = i;
    i = j;
    j = t;
  }
  // Pairs (i, j > i) of the rows before i, then j's place in row i.
  return size_t(i) * (2 * k - i - 1) / 2 + (j - i - 1);
}

}  // namespace waymesh
