#include "crc32.h"

#include <zlib.h>

#include <algorithm>
#include <limits>

namespace waymesh {

uint32_t Crc32(std::span<const std::byte> bytes) {
  // zlib takes a 32-bit length: feed larger ranges in chunks.
  constexpr size_t kChunk = size_t{1} << 30;
  uLong crc = crc32(0L, Z_NULL, 0);
  const auto* data = reinterpret_cast<const Bytef*>(bytes.data());
  size_t left = bytes.size();
  while (left > 0) {
    size_t n = std::min(left, kChunk);
    crc = crc32(crc, data, static_cast<uInt>(n));
    data += n;
    left -= n;
  }
  return static_cast<uint32_t>(crc);
}

}  // namespace waymesh
