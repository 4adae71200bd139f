#pragma once
// Which polygons a query may use and what walking on them costs: a 64-bit area mask, per-area
// cost multipliers (Unity's model, defaults from the map's areas) and include/exclude polygon
// flags (Detour's model). Cheap to copy; build one per request kind and reuse it.

#include <array>
#include <cstdint>

#include "waymesh/core/nav_map.h"

namespace waymesh {

class QueryFilter {
 public:
  // Every area enabled with cost 1, every flag accepted.
  QueryFilter();
  // Every area enabled with the map's area costs (AreaType::cost), every flag accepted.
  explicit QueryFilter(const MapInfo& info);

  // Enables or disables walking on polygons of `area` (0..63; other values are ignored).
  void SetAreaEnabled(int area, bool enabled);
  // Cost multiplier for `area`; non-finite or non-positive costs are ignored (kept as before).
  void SetAreaCost(int area, float cost);
  // Replaces the whole area mask (bit a = area a enabled).
  void set_area_mask(uint64_t mask) { area_mask_ = mask; }
  // A polygon passes only if (flags & include) != 0 (include = 0xFFFF accepts all, also 0 flags).
  void set_include_flags(uint16_t flags) { include_flags_ = flags; }
  // A polygon passes only if (flags & exclude) == 0.
  void set_exclude_flags(uint16_t flags) { exclude_flags_ = flags; }

  uint64_t area_mask() const { return area_mask_; }
  uint16_t include_flags() const { return include_flags_; }
  uint16_t exclude_flags() const { return exclude_flags_; }

  // True when a polygon with this area and these flags may be used.
  bool Passes(uint8_t area, uint16_t flags) const {
    if (area >= kMaxAreas || !((area_mask_ >> area) & 1)) return false;
    if (include_flags_ != kAllFlags && (flags & include_flags_) == 0) return false;
    return (flags & exclude_flags_) == 0;
  }
  // Cost multiplier of `area` (callers pass 0..63).
  float Cost(uint8_t area) const { return costs_[area & (kMaxAreas - 1)]; }

  static constexpr uint16_t kAllFlags = 0xFFFF;

  // Same mask, flags and costs: the filters accept and price every polygon alike.
  bool operator==(const QueryFilter&) const = default;

 private:
  uint64_t area_mask_ = ~uint64_t{0};
  uint16_t include_flags_ = kAllFlags;
  uint16_t exclude_flags_ = 0;
  std::array<float, kMaxAreas> costs_;
};

}  // namespace waymesh
