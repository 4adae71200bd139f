#pragma once
// CRC-32 (ISO-HDLC, zlib's) of a byte range of any length.

#include <cstddef>
#include <cstdint>
#include <span>

namespace waymesh {

// CRC-32 of `bytes`, as zlib's crc32() computes it.
uint32_t Crc32(std::span<const std::byte> bytes);

}  // namespace waymesh
