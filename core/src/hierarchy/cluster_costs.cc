#include "waymesh/core/hierarchy/cluster_costs.h"

#include <algorithm>
#include <cmath>

namespace waymesh {

void ClusterCosts::Add(uint32_t k, const float* block) {
  float largest = 0;
  for (size_t i = 0; i < size_t(k) * k; ++i) {
    if (std::isfinite(block[i])) largest = std::max(largest, block[i]);
  }
  // Rounding up keeps every stored cost at least the measured one; the step is a little above
  // largest / kLargestCode so the largest cost itself still fits after float rounding.
  const float step = largest > 0 ? largest / float(kLargestCode) * (1.0f + 1e-6f) : 1.0f;
  start_.push_back(codes_.size());
  count_.push_back(k);
  step_.push_back(step);
  for (uint32_t i = 0; i < k; ++i) {
    for (uint32_t j = i + 1; j < k; ++j) {
      const float cost = block[size_t(i) * k + j];
      if (!std::isfinite(cost)) {
        codes_.push_back(kNotConnected);
        continue;
      }
      const double code = std::ceil(double(cost) / double(step));
      codes_.push_back(uint16_t(std::min(code, double(kLargestCode))));
    }
  }
}

size_t ClusterCosts::bytes() const {
  return start_.size() * sizeof(size_t) + count_.size() * sizeof(uint32_t) +
         step_.size() * sizeof(float) + codes_.size() * sizeof(uint16_t);
}

}  // namespace waymesh
