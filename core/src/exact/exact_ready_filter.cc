#include <cmath>

#include "waymesh/core/exact_path.h"

namespace waymesh {

QueryFilter ExactReadyFilter(const NavMap& map) {
  QueryFilter filter(map.info());
  const MapDigest& digest = map.digest();
  for (int a = 0; a < kMaxAreas; ++a) {
    if (std::isfinite(digest.link_cost_per_metre[a])) filter.SetAreaEnabled(a, false);
    filter.SetAreaCost(a, 1.0f);
  }
  return filter;
}

}  // namespace waymesh
