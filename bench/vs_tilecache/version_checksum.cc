#include "vs_tilecache/version_checksum.h"

#include <cstring>
#include <span>

namespace waymesh::bench {
namespace {

constexpr uint64_t kFnvPrime = 0x100000001b3ull;

uint64_t FoldBytes(const void* data, size_t size, uint64_t h) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < size; ++i) h = (h ^ bytes[i]) * kFnvPrime;
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

}  // namespace

uint64_t ChecksumVersion(const NavMap& map, uint64_t seed) {
  uint64_t h = seed;
  const uint64_t islands = map.info().islands.size();
  h = FoldBytes(&islands, sizeof(islands), h);
  for (uint32_t t = 0; t < map.tile_count(); ++t) {
    const TileView& v = map.tile(t);
    const uint32_t generation = map.generation(t);
    h = FoldBytes(&generation, sizeof(generation), h);
    h = FoldAll(h, v.vertices, v.poly_start, v.poly_verts, v.poly_neighbors, v.poly_area,
                v.poly_flags, v.poly_island, v.detail_tris, v.area_prefix, v.bv_nodes,
                v.cross_links, v.poly_origin);
  }
  return h;
}

}  // namespace waymesh::bench
