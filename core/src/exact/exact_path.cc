#include "waymesh/core/exact_path.h"

#include <bit>

#include "absl/strings/str_format.h"

namespace waymesh {

absl::Status CheckExactPathSupport(const NavMap& map, const QueryFilter& filter) {
  const MapDigest& digest = map.digest();
  int first = -1;
  for (uint64_t m = filter.area_mask() & digest.areas_present; m != 0; m &= m - 1) {
    const int a = std::countr_zero(m);
    if (first < 0) {
      first = a;
    } else if (filter.Cost(uint8_t(a)) != filter.Cost(uint8_t(first))) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "exact mode needs one cost per metre over the areas the filter allows, but area %d "
          "(%s) costs %g and area %d (%s) costs %g: with different costs the shortest path is "
          "the weighted-region problem, which has no exact practical algorithm; use "
          "approximate mode, or give these areas one cost or disable one of them",
          first, map.info().areas[first].name, filter.Cost(uint8_t(first)), a,
          map.info().areas[a].name, filter.Cost(uint8_t(a))));
    }
  }
  return absl::OkStatus();
}

}  // namespace waymesh
