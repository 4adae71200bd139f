#pragma once
// Per polygon of a map (the numbering of its search tables), the connected part of its cluster
// it is in, numbered within the cluster (cluster_graph.h): kept in 8 bits when no cluster falls
// into more than 256 parts, in 16 bits otherwise. Measured on the 16 km² world (381 596
// polygons, at most a few dozen parts per 63 m tile), the 16-bit array was a fifth of the
// cluster graph's bytes.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace waymesh {

class PolygonParts {
 public:
  // Most parts one cluster may fall into (the wide form's 16 bits).
  static constexpr uint32_t kMaxParts = 0x10000;

  PolygonParts() = default;
  // The parts of `parts.size()` polygons, each below kMaxParts, in the narrowest form that
  // holds them all.
  explicit PolygonParts(const std::vector<uint16_t>& parts);

  // The part of polygon `polygon` (< size()).
  uint32_t Of(uint32_t polygon) const {
    return narrow_.empty() ? uint32_t(wide_[polygon]) : uint32_t(narrow_[polygon]);
  }
  size_t size() const { return narrow_.empty() ? wide_.size() : narrow_.size(); }
  bool empty() const { return size() == 0; }
  // Bits per polygon: 8 or 16 (0 when empty).
  uint32_t bits() const { return empty() ? 0 : narrow_.empty() ? 16 : 8; }
  size_t bytes() const { return narrow_.size() + wide_.size() * sizeof(uint16_t); }

 private:
  std::vector<uint8_t> narrow_;  // when every part is below 256
  std::vector<uint16_t> wide_;   // otherwise
};

}  // namespace waymesh
