#pragma once
// The demo world's random numbers: SplitMix64, integer-only so every platform and standard
// library draws the same sequence from the same seed (std distributions are not portable).

#include <cstdint>

namespace waymesh::demo {

class DemoRandom {
 public:
  explicit DemoRandom(uint64_t seed) : state_(seed) {}

  // Next 64 random bits.
  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform integer in [lo, hi] (hi >= lo); the modulo bias is irrelevant at these ranges.
  int Between(int lo, int hi) {
    return lo + static_cast<int>(Next() % static_cast<uint64_t>(hi - lo + 1));
  }
  // True with probability percent / 100.
  bool Percent(int percent) { return static_cast<int>(Next() % 100) < percent; }

 private:
  uint64_t state_;
};

}  // namespace waymesh::demo
