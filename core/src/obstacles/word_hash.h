#pragma once
// A fast hash of a short run of 32-bit words (carving's line and edge keys, 6 to 13 words of
// float bits and indices). absl::Hash hashes such keys as bytes, through its long-string path,
// which was a few percent of an obstacle update; this mixes two words per multiply and leaves
// absl's own mixing of the 64-bit result to spread it over the table.

#include <cstdint>
#include <span>

namespace waymesh::obstacles {

inline uint64_t HashWords(std::span<const uint32_t> words) {
  constexpr uint64_t kMul = 0x9E3779B97F4A7C15ull;  // 2^64 / golden ratio, odd
  uint64_t h = words.size();
  size_t i = 0;
  for (; i + 1 < words.size(); i += 2) {
    const uint64_t pair = uint64_t(words[i]) | uint64_t(words[i + 1]) << 32;
    h = (h ^ pair) * kMul;
    h ^= h >> 29;
  }
  if (i < words.size()) h = ((h ^ words[i]) * kMul) ^ (h >> 29);
  return h;
}

}  // namespace waymesh::obstacles
