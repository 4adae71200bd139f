#pragma once
// Exact-position identity of a vertex, for welding the per-tile vertex arrays of Waymesh into
// the shared vertex array of a Detour tile.

#include <array>
#include <bit>
#include <cstdint>

#include "waymesh/core/vec3.h"

namespace waymesh::bench {

// The bit patterns of x, y, z; -0 and +0 are the same position.
using VertexKey = std::array<uint32_t, 3>;

inline VertexKey KeyOf(Vec3 v) {
  return {std::bit_cast<uint32_t>(v.x + 0.0f), std::bit_cast<uint32_t>(v.y + 0.0f),
          std::bit_cast<uint32_t>(v.z + 0.0f)};
}

}  // namespace waymesh::bench
