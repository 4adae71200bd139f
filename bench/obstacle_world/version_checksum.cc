#include "obstacle_world/version_checksum.h"

#include <cstring>
#include <span>

namespace waymesh::bench {
namespace {

constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;

// Eight bytes per step (a version's changed tiles are megabytes on the town).
uint64_t FoldBytes(const void* data, size_t size, uint64_t h) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t word;
    std::memcpy(&word, bytes + i, 8);
    h = (h ^ word) * kMul;
    h ^= h >> 31;
  }
  for (; i < size; ++i) h = ((h ^ bytes[i]) * kMul) ^ (h >> 31);
  return h;
}

// The size goes in too, so that moving an element from one array to the next changes the sum.
template <typename T>
uint64_t Fold(std::span<const T> values, uint64_t h) {
  const uint64_t size = values.size();
  h = FoldBytes(&size, sizeof(size), h);
  return FoldBytes(values.data(), values.size_bytes(), h);
}

template <typename... Spans>
uint64_t FoldAll(uint64_t h, const Spans&... spans) {
  ((h = Fold(spans, h)), ...);
  return h;
}

// Whether `b` holds the very arrays of `a` (shared, not rebuilt; island ids are replaced
// separately from the rest).
bool AllShared(const TileView& a, const TileView& b) {
  return a.vertices.data() == b.vertices.data() && a.poly_start.data() == b.poly_start.data() &&
         a.poly_neighbors.data() == b.poly_neighbors.data() &&
         a.poly_island.data() == b.poly_island.data() &&
         a.cross_links.data() == b.cross_links.data() &&
         a.poly_origin.data() == b.poly_origin.data() && a.poly_area.data() == b.poly_area.data();
}

}  // namespace

uint64_t ChecksumVersion(const NavMap& previous, const NavMap& next, uint64_t seed) {
  uint64_t h = seed;
  const uint64_t islands = next.info().islands.size();
  h = FoldBytes(&islands, sizeof(islands), h);
  for (uint32_t t = 0; t < next.tile_count(); ++t) {
    const TileView& v = next.tile(t);
    const uint32_t generation = next.generation(t);
    h = FoldBytes(&generation, sizeof(generation), h);
    if (AllShared(previous.tile(t), v)) continue;
    h = FoldBytes(&t, sizeof(t), h);
    h = FoldAll(h, v.vertices, v.poly_start, v.poly_verts, v.poly_neighbors, v.poly_area,
                v.poly_flags, v.poly_island, v.detail_tris, v.area_prefix, v.bv_nodes,
                v.cross_links, v.poly_origin);
  }
  return h;
}

}  // namespace waymesh::bench
