#pragma once
// Writes a file header into `.wmesh` bytes and seals the header block with its CRC: the last
// step of every writer that changes the header (the compiler, the section appenders).

#include <cstring>
#include <span>
#include <string>

#include "crc32.h"
#include "wmesh_layout.h"

namespace waymesh::wmesh {

// `h` at offset 0 of `bytes`, whose header block ([0, h.header_bytes)) is otherwise complete,
// with header_crc computed over [kHeaderCrcStart, header_bytes).
inline void SealFileHeader(FileHeader h, std::string* bytes) {
  std::memcpy(bytes->data(), &h, sizeof h);
  const auto covered =
      std::as_bytes(std::span(bytes->data(), h.header_bytes)).subspan(kHeaderCrcStart);
  h.header_crc = Crc32(covered);
  std::memcpy(bytes->data() + offsetof(FileHeader, header_crc), &h.header_crc,
              sizeof h.header_crc);
}

}  // namespace waymesh::wmesh
