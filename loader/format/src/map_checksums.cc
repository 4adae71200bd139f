// ResealMapChecksums: recompute every CRC of possibly damaged `.wmesh` bytes in place.

#include <algorithm>
#include <cstring>

#include "crc32.h"
#include "waymesh/format/map_tiles.h"
#include "wmesh_layout.h"

namespace waymesh {

namespace {

// The plan twin section starting at `at`, when one fits the bytes: its image's CRCs (the
// image is a version 1 map, so this goes one level deep), then its own CRC.
void ResealPlanTwin(std::span<std::byte> bytes, uint64_t at) {
  if (at > bytes.size() || bytes.size() - at < sizeof(wmesh::PlanTwinHeader)) return;
  const std::span<std::byte> section = bytes.subspan(at);
  wmesh::PlanTwinHeader h;
  std::memcpy(&h, section.data(), sizeof h);
  if (h.cover_count <= section.size() && h.twin_bytes <= section.size() &&
      h.map_polygons <= section.size()) {
    const wmesh::PlanTwinLayout l =
        wmesh::ComputePlanTwinLayout(h.map_polygons, h.cover_count, h.twin_bytes);
    uint32_t version = 0;
    if (l.twin + 12 <= section.size()) std::memcpy(&version, section.data() + l.twin + 8, 4);
    if (l.twin + h.twin_bytes <= section.size() && version == wmesh::kPlainFormatVersion) {
      ResealMapChecksums(section.subspan(l.twin, h.twin_bytes));
    }
  }
  h.crc = Crc32(section.subspan(wmesh::kPlanTwinCrcStart));
  std::memcpy(section.data() + offsetof(wmesh::PlanTwinHeader, crc), &h.crc, sizeof h.crc);
}

}  // namespace

void ResealMapChecksums(std::span<std::byte> bytes) {
  if (bytes.size() < sizeof(wmesh::FileHeader)) return;
  wmesh::FileHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (h.header_bytes < wmesh::kHeaderCrcStart || h.header_bytes > bytes.size()) return;
  // Only directory entries inside the header block, pointing at tiles inside the bytes.
  const uint64_t dir_at = wmesh::TileDirectoryOffset(h.island_count);
  uint64_t tiles_end = h.header_bytes;
  for (uint64_t t = 0; t < h.tile_count; ++t) {
    const uint64_t at = dir_at + t * sizeof(wmesh::TileRecord);
    if (at + sizeof(wmesh::TileRecord) > h.header_bytes) break;
    wmesh::TileRecord r;
    std::memcpy(&r, bytes.data() + at, sizeof r);
    if (r.offset > bytes.size() || r.bytes > bytes.size() - r.offset) continue;
    r.crc = Crc32(bytes.subspan(r.offset, r.bytes));
    tiles_end = std::max<uint64_t>(tiles_end, r.offset + r.bytes);
    std::memcpy(bytes.data() + at + offsetof(wmesh::TileRecord, crc), &r.crc, sizeof r.crc);
  }
  // The exact landmark section's CRC lives in the header: sealed before the header's own.
  if (h.exact_landmarks_bytes != 0 && h.exact_landmarks_offset <= bytes.size() &&
      h.exact_landmarks_bytes <= bytes.size() - h.exact_landmarks_offset) {
    h.exact_landmarks_crc = Crc32(bytes.subspan(h.exact_landmarks_offset, h.exact_landmarks_bytes));
    std::memcpy(bytes.data() + offsetof(wmesh::FileHeader, exact_landmarks_crc),
                &h.exact_landmarks_crc, sizeof h.exact_landmarks_crc);
  }
  // The plan twin section (version 3) after the tiles and the landmark section.
  if (h.version == wmesh::kFormatVersion) {
    const bool landmarks = h.exact_landmarks_bytes != 0 && h.exact_landmarks_offset <= bytes.size();
    ResealPlanTwin(bytes, landmarks ? h.exact_landmarks_offset + h.exact_landmarks_bytes
                                    : tiles_end);
  }
  h.header_crc =
      Crc32(bytes.subspan(wmesh::kHeaderCrcStart, h.header_bytes - wmesh::kHeaderCrcStart));
  std::memcpy(bytes.data() + offsetof(wmesh::FileHeader, header_crc), &h.header_crc,
              sizeof h.header_crc);
}

}  // namespace waymesh
