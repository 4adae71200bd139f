#pragma once
// Small pieces the twin's builders share (one definition: CI's unity build puts them in one
// file).

#include <cstdint>

namespace waymesh::twin {

// A directed edge between two vertex ids of one tile, as a hash key.
inline uint64_t EdgeKey(uint32_t a, uint32_t b) { return uint64_t(a) << 32 | b; }

}  // namespace waymesh::twin
