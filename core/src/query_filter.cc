#include "waymesh/core/query_filter.h"

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

}  // namespace waymesh
