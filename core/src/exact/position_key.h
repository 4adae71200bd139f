#pragma once
// Copies of one vertex at tile seams carry the same position bit for bit (the tiler copies
// it), so the exact search's tables that treat seam copies as one corner key them by those
// bits.

#include <array>
#include <bit>
#include <cstdint>

#include "waymesh/core/vec3.h"

namespace waymesh::internal::exact {

using PositionKey = std::array<uint32_t, 3>;

// The bits of `v`, with -0 read as +0 (the two compare equal as floats).
inline PositionKey KeyOf(Vec3 v) {
  return PositionKey{std::bit_cast<uint32_t>(v.x + 0.0f), std::bit_cast<uint32_t>(v.y + 0.0f),
                     std::bit_cast<uint32_t>(v.z + 0.0f)};
}

}  // namespace waymesh::internal::exact
