#pragma once
// Small pieces the twin's builders share (one definition: CI's unity build puts them in one
// file).

#include <cstdint>

#include "waymesh/core/vec3.h"

namespace waymesh::twin {

// Twice the plan area of abc in double (the floats' products are exact there); > 0 for the
// map's winding.
inline double Area2(Vec3 a, Vec3 b, Vec3 c) {
  return (double(b.x) - a.x) * (double(c.z) - a.z) - (double(c.x) - a.x) * (double(b.z) - a.z);
}

// A directed edge between two vertex ids of one tile, as a hash key.
inline uint64_t EdgeKey(uint32_t a, uint32_t b) { return uint64_t(a) << 32 | b; }

}  // namespace waymesh::twin
