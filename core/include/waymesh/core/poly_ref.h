#pragma once
// 64-bit reference to one polygon of a loaded map: tile index, polygon index inside the tile,
// and the tile's generation. A tile's generation changes whenever its polygons do (the map was
// reloaded, an obstacle layer re-carved the tile), so a reference taken before is detectably
// stale: queries refuse it instead of reading another polygon. Generations wrap after
// 2^kGenerationBits - 1 changes of one tile, as Detour's salt does; 0 is never a generation.

#include <cstdint>

#include "waymesh/core/poly_index.h"

namespace waymesh {

// The generation every tile of a freshly loaded map has unless its loader says otherwise.
inline constexpr uint32_t kFirstGeneration = 1;

class PolyRef {
 public:
  static constexpr int kPolyBits = 24;
  static constexpr int kTileBits = 22;
  static constexpr int kGenerationBits = 18;
  // Largest polygon index inside a tile and largest tile index a reference can hold; the map
  // compiler and loader refuse maps beyond them.
  static constexpr uint32_t kMaxPoly = (1u << kPolyBits) - 1;
  static constexpr uint32_t kMaxTile = (1u << kTileBits) - 1;
  static constexpr uint32_t kMaxGeneration = (1u << kGenerationBits) - 1;

  constexpr PolyRef() = default;
  constexpr PolyRef(uint32_t tile, uint32_t poly, uint32_t generation)
      : bits_((uint64_t{generation & kMaxGeneration} << (kPolyBits + kTileBits)) |
              (uint64_t{tile & kMaxTile} << kPolyBits) | (poly & kMaxPoly)) {}

  constexpr PolyRef(PolyIndex p, uint32_t generation) : PolyRef(p.tile, p.poly, generation) {}

  constexpr uint32_t tile() const { return (bits_ >> kPolyBits) & kMaxTile; }
  constexpr uint32_t poly() const { return static_cast<uint32_t>(bits_) & kMaxPoly; }
  constexpr uint32_t generation() const { return uint32_t(bits_ >> (kPolyBits + kTileBits)); }
  constexpr PolyIndex index() const { return {tile(), poly()}; }
  constexpr bool valid() const { return bits_ != kInvalid; }
  constexpr uint64_t bits() const { return bits_; }
  static constexpr PolyRef FromBits(uint64_t b) {
    PolyRef r;
    r.bits_ = b;
    return r;
  }
  friend constexpr bool operator==(PolyRef, PolyRef) = default;

 private:
  static constexpr uint64_t kInvalid = ~uint64_t{0};
  uint64_t bits_ = kInvalid;
};

// The generation after `g`: 1 .. kMaxGeneration, skipping 0.
constexpr uint32_t NextGeneration(uint32_t g) { return g >= PolyRef::kMaxGeneration ? 1 : g + 1; }

}  // namespace waymesh
