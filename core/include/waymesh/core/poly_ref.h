#pragma once
// 64-bit reference to one polygon of a loaded map: tile index, polygon index inside the tile,
// and the tile's generation, so a reference taken before a reload or eviction is detectably stale.

#include <cstdint>

namespace waymesh {

class PolyRef {
 public:
  static constexpr int kPolyBits = 32;
  static constexpr int kTileBits = 22;
  static constexpr int kGenerationBits = 10;

  constexpr PolyRef() = default;
  constexpr PolyRef(uint32_t tile, uint32_t poly, uint32_t generation = 0)
      : bits_((uint64_t{generation & kGenerationMask} << (kPolyBits + kTileBits)) |
              (uint64_t{tile & kTileMask} << kPolyBits) | poly) {}

  constexpr uint32_t tile() const { return (bits_ >> kPolyBits) & kTileMask; }
  constexpr uint32_t poly() const { return static_cast<uint32_t>(bits_); }
  constexpr uint32_t generation() const { return bits_ >> (kPolyBits + kTileBits); }
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
  static constexpr uint32_t kTileMask = (1u << kTileBits) - 1;
  static constexpr uint32_t kGenerationMask = (1u << kGenerationBits) - 1;
  uint64_t bits_ = kInvalid;
};

}  // namespace waymesh
