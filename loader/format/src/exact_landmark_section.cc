// ReadExactLandmarkSection and AppendExactLandmarkSection: the optional exact landmark table
// of a `.wmesh` file (docs/map-format.md, "Exact landmark section").

#include <cmath>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "crc32.h"
#include "format_error.h"
#include "header_seal.h"
#include "waymesh/format/map_tiles.h"
#include "wmesh_layout.h"

namespace waymesh {
namespace {

// Every message names the section and the file offset of the failing part.
absl::Status BadSection(const MapDirectory& dir, uint64_t at, absl::string_view what) {
  return wmesh::BadFormat(dir.exact_landmarks.offset + at,
                          absl::StrCat("exact landmark section: ", what));
}

// The header's counts against the map the directory describes.
absl::Status CheckSectionHeader(const MapDirectory& dir, const wmesh::ExactLandmarkHeader& h,
                                uint64_t vertices) {
  if (std::memcmp(h.magic, wmesh::kExactLandmarkMagic, sizeof h.magic) != 0) {
    return BadSection(dir, 0, "bad magic (expected \"WXLM\")");
  }
  if (h.version != wmesh::kExactLandmarkVersion) {
    return BadSection(
        dir, offsetof(wmesh::ExactLandmarkHeader, version),
        absl::StrCat("unsupported section version ", h.version, " (this build reads version ",
                     wmesh::kExactLandmarkVersion, ")"));
  }
  if (h.landmark_count == 0 || h.landmark_count > ExactLandmarkTable::kMaxCount) {
    return BadSection(
        dir, offsetof(wmesh::ExactLandmarkHeader, landmark_count),
        absl::StrCat(h.landmark_count, " landmarks (1 to ", ExactLandmarkTable::kMaxCount, ")"));
  }
  if (h.tile_count != dir.tiles.size() || h.vertex_count != vertices) {
    return BadSection(dir, offsetof(wmesh::ExactLandmarkHeader, tile_count),
                      absl::StrCat("built for ", h.tile_count, " tiles and ", h.vertex_count,
                                   " vertices, but the map has ", dir.tiles.size(), " and ",
                                   vertices, ": not this map's table"));
  }
  if (!std::isfinite(h.step) || !(h.step > 0)) {
    return BadSection(dir, offsetof(wmesh::ExactLandmarkHeader, step),
                      "step must be finite and positive");
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ExactLandmarkTable> ReadExactLandmarkSection(const MapDirectory& dir,
                                                            std::span<const std::byte> bytes) {
  const MapSectionEntry& entry = dir.exact_landmarks;
  if (bytes.size() != entry.bytes || bytes.size() < sizeof(wmesh::ExactLandmarkHeader)) {
    return BadSection(dir, 0,
                      absl::StrCat(bytes.size(), " bytes, but the header says ", entry.bytes));
  }
  if (const uint32_t crc = Crc32(bytes); crc != entry.crc32) {
    return wmesh::DataLoss(entry.offset, absl::StrCat("exact landmark section ",
                                                      wmesh::CrcMismatch(entry.crc32, crc)));
  }
  wmesh::ExactLandmarkHeader h;
  std::memcpy(&h, bytes.data(), sizeof h);
  std::vector<uint32_t> vertex_base{0};
  for (const MapTileEntry& t : dir.tiles)
    vertex_base.push_back(vertex_base.back() + t.vertex_count);
  uint64_t vertices = 0;  // in 64 bits: the 32-bit bases must not have wrapped
  for (const MapTileEntry& t : dir.tiles) vertices += t.vertex_count;
  if (vertices >= 0xFFFFFFFFull) {
    return BadSection(dir, 0, absl::StrCat(vertices, " vertices, more than a table indexes"));
  }
  if (absl::Status s = CheckSectionHeader(dir, h, vertices); !s.ok()) return s;
  const wmesh::ExactLandmarkLayout layout =
      wmesh::ComputeExactLandmarkLayout(h.landmark_count, vertices);
  if (layout.total != bytes.size()) {
    return BadSection(dir, 0,
                      absl::StrCat(bytes.size(), " bytes, but ", h.landmark_count,
                                   " landmarks over ", vertices, " vertices take ", layout.total));
  }
  std::vector<Vec3> landmarks(h.landmark_count);
  std::memcpy(landmarks.data(), bytes.data() + layout.landmarks, landmarks.size() * sizeof(Vec3));
  for (uint32_t k = 0; k < h.landmark_count; ++k) {
    if (!IsFinite(landmarks[k])) {
      return BadSection(dir, layout.landmarks + k * sizeof(Vec3),
                        absl::StrCat("landmark ", k, " is not finite"));
    }
  }
  const uint64_t rows_end = layout.rows + uint64_t{h.landmark_count} * vertices * sizeof(uint16_t);
  if (!wmesh::AllZero(bytes.subspan(sizeof h, layout.landmarks - sizeof h)) ||
      !wmesh::AllZero(bytes.subspan(layout.landmarks + h.landmark_count * sizeof(Vec3),
                               layout.rows - layout.landmarks - h.landmark_count * sizeof(Vec3))) ||
      !wmesh::AllZero(bytes.subspan(rows_end))) {
    return BadSection(dir, 0, "padding is not zero");
  }
  // Any stored value is a distance (kUnknown: unreached): nothing else to check per row.
  std::vector<uint16_t> rows(size_t(h.landmark_count) * vertices);
  std::memcpy(rows.data(), bytes.data() + layout.rows, rows.size() * sizeof(uint16_t));
  return ExactLandmarkTable(h.step, std::move(landmarks), std::move(vertex_base), std::move(rows));
}

absl::Status AppendExactLandmarkSection(const ExactLandmarkTable& table, std::string* bytes) {
  if (table.empty()) return absl::OkStatus();
  const uint64_t vertices = table.rows().size() / table.count();
  const wmesh::ExactLandmarkLayout layout =
      wmesh::ComputeExactLandmarkLayout(table.count(), vertices);
  if (layout.total > UINT32_MAX) {
    return absl::InvalidArgumentError(absl::StrCat("exact landmark section of ", layout.total,
                                                   " bytes exceeds the format's 4 GiB"));
  }
  wmesh::FileHeader fh;
  std::memcpy(&fh, bytes->data(), sizeof fh);
  if (fh.version != wmesh::kPlainFormatVersion) {
    // The section must follow the tiles directly (a plan twin section comes after it).
    return absl::FailedPreconditionError(
        "the exact landmark section goes right after the tiles, before any other section");
  }
  std::string section(layout.total, '\0');
  wmesh::ExactLandmarkHeader h{};
  std::memcpy(h.magic, wmesh::kExactLandmarkMagic, sizeof h.magic);
  h.version = wmesh::kExactLandmarkVersion;
  h.landmark_count = table.count();
  h.tile_count = fh.tile_count;
  h.step = table.step();
  h.vertex_count = vertices;
  std::memcpy(section.data(), &h, sizeof h);
  for (uint32_t k = 0; k < table.count(); ++k) {
    const Vec3 at = table.landmark(k);
    std::memcpy(section.data() + layout.landmarks + k * sizeof(Vec3), &at, sizeof at);
  }
  std::memcpy(section.data() + layout.rows, table.rows().data(),
              table.rows().size() * sizeof(uint16_t));

  fh.version = wmesh::kLandmarkFormatVersion;
  fh.exact_landmarks_offset = bytes->size();
  fh.exact_landmarks_bytes = uint32_t(section.size());
  fh.exact_landmarks_crc = Crc32(std::as_bytes(std::span(section)));
  bytes->append(section);
  fh.file_bytes = bytes->size();
  wmesh::SealFileHeader(fh, bytes);
  return absl::OkStatus();
}

}  // namespace waymesh
