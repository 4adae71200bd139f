#include "waymesh/core/exact_path.h"

namespace waymesh {

QueryFilter ExactReadyFilter(const NavMap& map) {
  QueryFilter filter(map.info());
  for (int a = 0; a < kMaxAreas; ++a) filter.SetAreaCost(a, 1.0f);
  return filter;
}

}  // namespace waymesh
