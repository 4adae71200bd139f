#include "waymesh/core/query_filter.h"

#include <algorithm>
#include <cmath>

namespace waymesh {

QueryFilter::QueryFilter() { costs_.fill(1.0f); }

QueryFilter::QueryFilter(const MapInfo& info) {
  for (int a = 0; a < kMaxAreas; ++a) {
    const float c = info.areas[a].cost;
    costs_[a] = (std::isfinite(c) && c > 0) ? c : 1.0f;
  }
}

void QueryFilter::SetAreaEnabled(int area, bool enabled) {
  if (area < 0 || area >= kMaxAreas) return;
  const uint64_t bit = uint64_t{1} << area;
  area_mask_ = enabled ? (area_mask_ | bit) : (area_mask_ & ~bit);
}

void QueryFilter::SetAreaCost(int area, float cost) {
  if (area < 0 || area >= kMaxAreas || !std::isfinite(cost) || !(cost > 0)) return;
  costs_[area] = cost;
}

float QueryFilter::MinCost() const {
  float best = INFINITY;
  for (int a = 0; a < kMaxAreas; ++a) {
    if ((area_mask_ >> a) & 1) best = std::min(best, costs_[a]);
  }
  return std::isfinite(best) ? best : 1.0f;
}

}  // namespace waymesh
