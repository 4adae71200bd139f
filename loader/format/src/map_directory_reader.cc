// ReadMapHeaderBytes and ReadMapDirectory: validating the `.wmesh` header block.

#include <cmath>
#include <cstring>
#include <optional>
#include <tuple>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "crc32.h"
#include "format_error.h"
#include "map_strings.h"
#include "waymesh/format/map_tiles.h"
#include "waymesh/io/utf8_check.h"
#include "wmesh_layout.h"

namespace waymesh {
namespace {

using wmesh::BadFormat;
using wmesh::DataLoss;

template <typename T>
T ReadAt(std::span<const std::byte> bytes, uint64_t offset) {
  T value;
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

bool Finite(const Aabb& b) { return IsFinite(b.min) && IsFinite(b.max); }

// Magic and version: the checks that say "this is not a file this build can read".
absl::Status CheckPreamble(std::span<const std::byte> bytes) {
  if (bytes.size() >= sizeof wmesh::kMagic &&
      std::memcmp(bytes.data(), wmesh::kMagic, sizeof wmesh::kMagic) != 0) {
    return BadFormat(0, "bad magic: not a .wmesh file");
  }
  if (bytes.size() >= 12) {
    const uint32_t version = ReadAt<uint32_t>(bytes, 8);
    if (version < wmesh::kPlainFormatVersion || version > wmesh::kFormatVersion) {
      return BadFormat(
          8, absl::StrCat("unsupported format version ", version, " (this build reads versions ",
                          wmesh::kPlainFormatVersion, " to ", wmesh::kFormatVersion, ")"));
    }
  }
  if (bytes.size() < kMapPreambleBytes) {
    return DataLoss(bytes.size(),
                    absl::StrCat("file truncated: ", bytes.size(), " bytes, fewer than the ",
                                 kMapPreambleBytes, "-byte preamble"));
  }
  return absl::OkStatus();
}

// header_bytes against the available bytes and the header CRC.
absl::Status CheckHeaderBlock(const wmesh::FileHeader& h, std::span<const std::byte> bytes) {
  constexpr uint64_t kAt = offsetof(wmesh::FileHeader, header_bytes);
  if (h.header_bytes < sizeof(wmesh::FileHeader) || h.header_bytes % wmesh::kAlignment != 0) {
    return BadFormat(
        kAt, absl::StrCat("header_bytes ", h.header_bytes, " is not a multiple of 16 of at least ",
                          sizeof(wmesh::FileHeader)));
  }
  if (h.header_bytes > bytes.size()) {
    return DataLoss(kAt, absl::StrCat("file truncated: header block has ", h.header_bytes,
                                      " bytes but only ", bytes.size(), " are present"));
  }
  const uint32_t crc =
      Crc32(bytes.subspan(wmesh::kHeaderCrcStart, h.header_bytes - wmesh::kHeaderCrcStart));
  if (crc != h.header_crc) {
    return DataLoss(offsetof(wmesh::FileHeader, header_crc),
                    absl::StrCat("header ", wmesh::CrcMismatch(h.header_crc, crc)));
  }
  return absl::OkStatus();
}

// The exact landmark section's place: none in version 1 (the bytes were reserved); in versions
// 2 and 3 either none or a section of whole 16-byte blocks, which ends the file in version 2
// (in version 3 the plan twin section follows it).
absl::Status CheckSectionFields(const wmesh::FileHeader& h) {
  constexpr uint64_t kAt = offsetof(wmesh::FileHeader, exact_landmarks_offset);
  const bool none =
      h.exact_landmarks_offset == 0 && h.exact_landmarks_bytes == 0 && h.exact_landmarks_crc == 0;
  if (h.version == wmesh::kPlainFormatVersion && !none) {
    return BadFormat(kAt, "reserved bytes are not zero");
  }
  if (none) return absl::OkStatus();
  if (h.exact_landmarks_bytes < sizeof(wmesh::ExactLandmarkHeader) ||
      h.exact_landmarks_bytes % wmesh::kAlignment != 0 ||
      h.exact_landmarks_offset < h.header_bytes || h.exact_landmarks_offset > h.file_bytes ||
      h.file_bytes - h.exact_landmarks_offset < h.exact_landmarks_bytes ||
      (h.version == wmesh::kLandmarkFormatVersion &&
       h.file_bytes - h.exact_landmarks_offset != h.exact_landmarks_bytes)) {
    return BadFormat(
        kAt, absl::StrCat("exact landmark section: ", h.exact_landmarks_bytes, " bytes at offset ",
                          h.exact_landmarks_offset,
                          h.version == wmesh::kLandmarkFormatVersion ? " do not end the file ("
                                                                      : " do not fit the file (",
                          h.file_bytes, " bytes) in whole 16-byte blocks"));
  }
  return absl::OkStatus();
}

// Where the sections after the tiles lie (tiles_end: where the last tile ends): the exact
// landmark section, when there is one, right after the tiles; in version 3 the plan twin
// section after that, up to the end of the file (its size and CRC are in its own header).
absl::Status PlaceSections(const wmesh::FileHeader& h, uint64_t tiles_end, MapDirectory* dir) {
  const bool landmarks = h.exact_landmarks_bytes != 0;
  if (landmarks && h.exact_landmarks_offset != tiles_end) {
    return BadFormat(offsetof(wmesh::FileHeader, exact_landmarks_offset),
                     absl::StrCat("exact landmark section at ", h.exact_landmarks_offset,
                                  " but the tiles end at ", tiles_end));
  }
  dir->exact_landmarks = {h.exact_landmarks_offset, h.exact_landmarks_bytes, h.exact_landmarks_crc};
  const uint64_t rest = landmarks ? h.exact_landmarks_offset + h.exact_landmarks_bytes : tiles_end;
  if (h.version != wmesh::kFormatVersion) {
    if (rest == h.file_bytes) return absl::OkStatus();
    return BadFormat(offsetof(wmesh::FileHeader, file_bytes),
                     absl::StrCat("file_bytes ", h.file_bytes, " but the ",
                                  landmarks ? "exact landmark section" : "tiles", " end at ",
                                  rest));
  }
  if (rest >= h.file_bytes || (h.file_bytes - rest) % wmesh::kAlignment != 0 ||
      h.file_bytes - rest < sizeof(wmesh::PlanTwinHeader) || h.file_bytes - rest > UINT32_MAX) {
    return BadFormat(offsetof(wmesh::FileHeader, file_bytes),
                     absl::StrCat("version 3 file: the plan twin section from ", rest,
                                  " to file_bytes ", h.file_bytes,
                                  " is not whole 16-byte blocks of at least ",
                                  sizeof(wmesh::PlanTwinHeader), " bytes (at most 4 GiB)"));
  }
  dir->plan_twin = {rest, uint32_t(h.file_bytes - rest), 0};
  return absl::OkStatus();
}

absl::Status CheckCounts(const wmesh::FileHeader& h) {
  const uint64_t expected =
      h.tile_count > wmesh::kMaxTiles
          ? UINT64_MAX
          : wmesh::HeaderBlockBytes(h.island_count, h.tile_count, h.strings_bytes);
  if (expected != h.header_bytes) {
    return BadFormat(
        offsetof(wmesh::FileHeader, tile_count),
        absl::StrCat("header says ", h.tile_count, " tiles, ", h.island_count, " islands and ",
                     h.strings_bytes, " string bytes, which do not fit a header block of ",
                     h.header_bytes, " bytes"));
  }
  const uint64_t cells = uint64_t{h.grid_width} * h.grid_height;
  if (cells > wmesh::kMaxGridCells || h.tile_count > cells) {
    return BadFormat(
        offsetof(wmesh::FileHeader, grid_width),
        absl::StrCat("tile grid ", h.grid_width, " x ", h.grid_height, " with ", h.tile_count,
                     " tiles (at most ", wmesh::kMaxGridCells, " cells, one tile per cell)"));
  }
  if (h.file_bytes < h.header_bytes) {
    return BadFormat(offsetof(wmesh::FileHeader, file_bytes),
                     absl::StrCat("file_bytes ", h.file_bytes, " < header_bytes ", h.header_bytes));
  }
  return CheckSectionFields(h);
}

absl::Status CheckHeaderNumbers(const wmesh::FileHeader& h) {
  for (float f : {h.agent_radius, h.agent_height, h.agent_max_slope_deg, h.agent_step_height,
                  h.agent_voxel_size, h.tile_size, h.grid_origin.x, h.grid_origin.y,
                  h.grid_origin.z, h.max_tile_overhang}) {
    if (!std::isfinite(f))
      return BadFormat(offsetof(wmesh::FileHeader, agent_radius),
                       "agent or grid setting is not finite");
  }
  if (h.tile_count > 0 && !(h.tile_size > 0)) {
    return BadFormat(offsetof(wmesh::FileHeader, tile_size), "tile_size must be positive");
  }
  if (!Finite(h.bounds)) {
    return BadFormat(offsetof(wmesh::FileHeader, bounds), "map bounds are not finite");
  }
  if (!std::isfinite(h.walkable_area) || h.walkable_area < 0) {
    return BadFormat(offsetof(wmesh::FileHeader, walkable_area), "walkable_area is invalid");
  }
  return absl::OkStatus();
}

void CopyHeader(const wmesh::FileHeader& h, MapDirectory* dir) {
  dir->format_version = h.version;
  dir->file_bytes = h.file_bytes;
  dir->header_bytes = h.header_bytes;
  MapInfo& info = dir->info;
  info.agent = {h.agent_radius, h.agent_height, h.agent_max_slope_deg, h.agent_step_height,
                h.agent_voxel_size};
  info.bounds = h.bounds;
  info.tile_size = h.tile_size;
  info.grid_origin = h.grid_origin;
  info.grid_width = h.grid_width;
  info.grid_height = h.grid_height;
  info.max_tile_overhang = h.max_tile_overhang;
  info.vertex_count = h.vertex_count;
  info.polygon_count = h.polygon_count;
  info.off_mesh_link_count = h.off_mesh_link_count;
  info.walkable_area = h.walkable_area;
  info.repairs = {h.repairs_welded, h.repairs_t_junctions, h.repairs_non_manifold,
                  h.repairs_degenerate};
}

absl::Status ReadAreas(std::span<const std::byte> bytes, MapInfo* info) {
  for (int a = 0; a < kMaxAreas; ++a) {
    const uint64_t at = wmesh::kAreaTableOffset + a * sizeof(wmesh::AreaRecord);
    const auto r = ReadAt<wmesh::AreaRecord>(bytes, at);
    if (!std::isfinite(r.cost) || r.cost < 0 || r.used > 1 ||
        !wmesh::AllZero(std::as_bytes(std::span(r.reserved)))) {
      return BadFormat(at, absl::StrCat("area ", a,
                                        ": cost must be finite and >= 0, used 0 "
                                        "or 1, reserved bytes zero"));
    }
    info->areas[a].cost = r.cost;
    info->areas[a].used = r.used != 0;
  }
  return absl::OkStatus();
}

absl::Status ReadIslands(std::span<const std::byte> bytes, uint32_t count, MapInfo* info) {
  info->islands.resize(count);  // count is bounded by the (present) header block
  for (uint32_t i = 0; i < count; ++i) {
    const uint64_t at = wmesh::kIslandTableOffset + uint64_t{i} * sizeof(wmesh::IslandRecord);
    const auto r = ReadAt<wmesh::IslandRecord>(bytes, at);
    if (!std::isfinite(r.area) || r.area < 0 || r.group >= count) {
      return BadFormat(at, absl::StrCat("island ", i, ": area not finite or group ", r.group,
                                        " >= island count ", count));
    }
    info->islands[i] = {r.polygons, r.area, r.group};
  }
  return absl::OkStatus();
}

absl::Status CheckTileRecord(const wmesh::TileRecord& r, uint32_t t, uint64_t at,
                             uint64_t expected_offset, const wmesh::TileRecord* previous,
                             const wmesh::FileHeader& h) {
  // Messages only: built on failure, not for every tile.
  auto tile = [t] { return absl::StrCat("tile ", t, ": "); };
  if (r.grid_x < 0 || r.grid_z < 0 || uint32_t(r.grid_x) >= h.grid_width ||
      uint32_t(r.grid_z) >= h.grid_height) {
    return BadFormat(at,
                     absl::StrCat(tile(), "grid cell (", r.grid_x, ", ", r.grid_z, ") outside the ",
                                  h.grid_width, " x ", h.grid_height, " grid"));
  }
  if (previous && std::tie(previous->grid_z, previous->grid_x) >= std::tie(r.grid_z, r.grid_x)) {
    return BadFormat(at, tile() + "directory not sorted by (grid_z, grid_x) or cell repeated");
  }
  if (r.offset != expected_offset) {
    return BadFormat(at + offsetof(wmesh::TileRecord, offset),
                     absl::StrCat(tile(), "offset ", r.offset, " but the previous tile ends at ",
                                  expected_offset));
  }
  if (r.bytes < sizeof(wmesh::TileHeader) || r.bytes % wmesh::kAlignment != 0) {
    return BadFormat(at + offsetof(wmesh::TileRecord, bytes),
                     absl::StrCat(tile(), "size ", r.bytes, " is not a multiple of 16 of at least ",
                                  sizeof(wmesh::TileHeader)));
  }
  if (r.poly_count == 0 || r.poly_count > wmesh::kMaxTilePolygons) {
    return BadFormat(at + offsetof(wmesh::TileRecord, poly_count),
                     absl::StrCat(tile(), "polygon count ", r.poly_count, " out of range"));
  }
  if (!Finite(r.bounds)) {
    return BadFormat(at + offsetof(wmesh::TileRecord, bounds), tile() + "bounds not finite");
  }
  return absl::OkStatus();
}

absl::Status ReadDirectory(std::span<const std::byte> bytes, const wmesh::FileHeader& h,
                           MapDirectory* dir) {
  const uint64_t base = wmesh::TileDirectoryOffset(h.island_count);
  dir->tiles.resize(h.tile_count);  // bounded by the (present) header block
  uint64_t expected_offset = h.header_bytes;
  uint64_t polygons = 0;
  wmesh::TileRecord previous;
  for (uint32_t t = 0; t < h.tile_count; ++t) {
    const uint64_t at = base + uint64_t{t} * sizeof(wmesh::TileRecord);
    const auto r = ReadAt<wmesh::TileRecord>(bytes, at);
    if (absl::Status s = CheckTileRecord(r, t, at, expected_offset, t ? &previous : nullptr, h);
        !s.ok()) {
      return s;
    }
    dir->tiles[t] = {r.grid_x, r.grid_z,     r.offset,       r.bytes,
                     r.crc,    r.poly_count, r.vertex_count, r.bounds};
    expected_offset += r.bytes;
    polygons += r.poly_count;
    previous = r;
  }
  if (absl::Status s = PlaceSections(h, expected_offset, dir); !s.ok()) return s;
  if (polygons != h.polygon_count) {
    return BadFormat(
        offsetof(wmesh::FileHeader, polygon_count),
        absl::StrCat("polygon_count ", h.polygon_count, " but the tiles hold ", polygons));
  }
  return absl::OkStatus();
}

absl::Status ReadStrings(std::span<const std::byte> bytes, const wmesh::FileHeader& h,
                         MapInfo* info) {
  const uint64_t begin = wmesh::StringsOffset(h.island_count, h.tile_count);
  const uint64_t end = begin + h.strings_bytes;
  uint64_t at = begin;
  for (int i = 0; i < int(wmesh::kStringCount); ++i) {
    std::string* target = wmesh::MutableMapString(info, i);
    if (end - at < sizeof(uint16_t)) {
      return BadFormat(at, "string section ends inside a string length");
    }
    const uint16_t n = ReadAt<uint16_t>(bytes, at);
    if (n > wmesh::kMaxStringBytes || end - at - sizeof n < n) {
      return BadFormat(at, absl::StrCat("string of ", n, " bytes exceeds the limit of ",
                                        wmesh::kMaxStringBytes, " or the string section"));
    }
    target->assign(reinterpret_cast<const char*>(bytes.data()) + at + sizeof n, n);
    // The server sends these in protobuf strings, which clients refuse unless they are UTF-8.
    if (std::optional<std::string> problem = Utf8Problem(*target)) {
      return BadFormat(at,
                       absl::StrCat(wmesh::MapStringName(i), " is not valid UTF-8: ", *problem));
    }
    at += sizeof n + n;
  }
  if (at != end) {
    return BadFormat(at, absl::StrCat(end - at, " unused bytes at the end of the string section"));
  }
  if (!wmesh::AllZero(bytes.subspan(end, h.header_bytes - end))) {
    return BadFormat(end, "header padding is not zero");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<uint32_t> ReadMapHeaderBytes(std::span<const std::byte> preamble) {
  if (absl::Status s = CheckPreamble(preamble); !s.ok()) return s;
  const auto header_bytes = ReadAt<uint32_t>(preamble, offsetof(wmesh::FileHeader, header_bytes));
  if (header_bytes < sizeof(wmesh::FileHeader) || header_bytes % wmesh::kAlignment != 0) {
    return BadFormat(
        offsetof(wmesh::FileHeader, header_bytes),
        absl::StrCat("header_bytes ", header_bytes, " is not a multiple of 16 of at least ",
                     sizeof(wmesh::FileHeader)));
  }
  return header_bytes;
}

absl::StatusOr<MapDirectory> ReadMapDirectory(std::span<const std::byte> bytes) {
  if (absl::Status s = CheckPreamble(bytes); !s.ok()) return s;
  if (bytes.size() < sizeof(wmesh::FileHeader)) {
    return DataLoss(bytes.size(),
                    absl::StrCat("file truncated: ", bytes.size(), " bytes, fewer than the ",
                                 sizeof(wmesh::FileHeader), "-byte header"));
  }
  const auto h = ReadAt<wmesh::FileHeader>(bytes, 0);
  absl::Status s = CheckHeaderBlock(h, bytes);
  if (s.ok()) s = CheckCounts(h);
  if (s.ok()) s = CheckHeaderNumbers(h);
  if (!s.ok()) return s;
  MapDirectory dir;
  CopyHeader(h, &dir);
  s = ReadAreas(bytes, &dir.info);
  if (s.ok()) s = ReadIslands(bytes, h.island_count, &dir.info);
  if (s.ok()) s = ReadDirectory(bytes, h, &dir);
  if (s.ok()) s = ReadStrings(bytes, h, &dir.info);
  if (!s.ok()) return s;
  return dir;
}

}  // namespace waymesh
