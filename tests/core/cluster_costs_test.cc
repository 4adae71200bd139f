// ClusterCosts (waymesh/core/hierarchy/cluster_costs.h): 16-bit costs per pair of a cluster's
// entrances read back within one step above the measured cost, never below it, the same both
// ways, INFINITY kept, each cluster with its own step.

#include "waymesh/core/hierarchy/cluster_costs.h"

#include <cmath>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace waymesh {
namespace {

// A symmetric k x k block of costs up to `largest` with zeros on the diagonal and about one
// pair in five not connected.
std::vector<float> SymmetricBlock(uint32_t k, float largest, std::mt19937& rng) {
  std::uniform_real_distribution<float> cost(0.0f, largest);
  std::vector<float> block(size_t(k) * k, 0.0f);
  for (uint32_t i = 0; i < k; ++i) {
    for (uint32_t j = i + 1; j < k; ++j) {
      const float c = rng() % 5 == 0 ? INFINITY : cost(rng);
      block[i * k + j] = block[j * k + i] = c;
    }
  }
  return block;
}

TEST(ClusterCostsTest, ReadsBackWithinOneStepAbove) {
  std::mt19937 rng(5);
  const std::vector<uint32_t> sizes = {0, 1, 7, 30};
  const std::vector<float> largest = {1, 10, 80, 2500};
  std::vector<std::vector<float>> blocks;
  ClusterCosts costs;
  for (size_t c = 0; c < sizes.size(); ++c) {
    blocks.push_back(SymmetricBlock(sizes[c], largest[c], rng));
    costs.Add(sizes[c], blocks.back().data());
  }
  for (uint32_t c = 0; c < sizes.size(); ++c) {
    const uint32_t k = sizes[c];
    const float step = largest[c] / 65534.0f;
    for (uint32_t i = 0; i < k; ++i) {
      for (uint32_t j = 0; j < k; ++j) {
        const float measured = blocks[c][i * k + j];
        const float stored = costs.Cost(c, i, j);
        EXPECT_EQ(stored, costs.Cost(c, j, i));
        if (!std::isfinite(measured)) {
          EXPECT_FALSE(std::isfinite(stored)) << c << " " << i << " " << j;
          continue;
        }
        EXPECT_GE(stored, measured * (1 - 1e-6f)) << c << " " << i << " " << j;
        EXPECT_LE(stored, measured + 1.01f * step) << c << " " << i << " " << j;
      }
    }
  }
  // Half a square of 16-bit codes: 21 + 435 pairs, besides the per-cluster headers.
  EXPECT_LT(costs.bytes(), (21u + 435u) * 2u + sizes.size() * 32u);
}

}  // namespace
}  // namespace waymesh
