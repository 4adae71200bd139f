// ResealMapChecksums: recompute every CRC of possibly damaged `.wmesh` bytes in place.

#include <cstring>

#include "crc32.h"
#include "waymesh/format/map_tiles.h"
#include "wmesh_layout.h"

namespace waymesh {

void ResealMapChecksums(std::span<std::byte> bytes) {
  if (bytes.size() < sizeof(wmesh::FileHeader)) return;
  wmesh::FileHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (h.header_bytes < wmesh::kHeaderCrcStart || h.header_bytes > bytes.size()) return;
  // Only directory entries inside the header block, pointing at tiles inside the bytes.
  const uint64_t dir_at = wmesh::TileDirectoryOffset(h.island_count);
  for (uint64_t t = 0; t < h.tile_count; ++t) {
    const uint64_t at = dir_at + t * sizeof(wmesh::TileRecord);
    if (at + sizeof(wmesh::TileRecord) > h.header_bytes) break;
    wmesh::TileRecord r;
    std::memcpy(&r, bytes.data() + at, sizeof r);
    if (r.offset > bytes.size() || r.bytes > bytes.size() - r.offset) continue;
    r.crc = Crc32(bytes.subspan(r.offset, r.bytes));
    std::memcpy(bytes.data() + at + offsetof(wmesh::TileRecord, crc), &r.crc, sizeof r.crc);
  }
  // The exact landmark section's CRC lives in the header: sealed before the header's own.
  if (h.exact_landmarks_bytes != 0 && h.exact_landmarks_offset <= bytes.size() &&
      h.exact_landmarks_bytes <= bytes.size() - h.exact_landmarks_offset) {
    h.exact_landmarks_crc = Crc32(bytes.subspan(h.exact_landmarks_offset, h.exact_landmarks_bytes));
    std::memcpy(bytes.data() + offsetof(wmesh::FileHeader, exact_landmarks_crc),
                &h.exact_landmarks_crc, sizeof h.exact_landmarks_crc);
  }
  h.header_crc =
      Crc32(bytes.subspan(wmesh::kHeaderCrcStart, h.header_bytes - wmesh::kHeaderCrcStart));
  std::memcpy(bytes.data() + offsetof(wmesh::FileHeader, header_crc), &h.header_crc,
              sizeof h.header_crc);
}

}  // namespace waymesh
