// CheckMapFile / CheckMapBytes: the loader's own validation, run part by part so that every
// damaged tile is reported, not only the first.

#include "waymesh/format/map_file_check.h"

#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "map_view_loader.h"
#include "waymesh/format/map_tiles.h"
#include "waymesh/io/mapped_file.h"

namespace waymesh {
namespace {

// Checksum failures are told apart from structural ones: a CRC mismatch means damaged bytes
// (disk, transfer), a structural error means a broken writer.
MapFinding FindingFrom(const absl::Status& status, std::string_view where) {
  const bool crc = status.code() == absl::StatusCode::kDataLoss &&
                   absl::StrContains(status.message(), "CRC32 mismatch");
  return {std::string(crc ? kCheckChecksum : kCheckStructure),
          absl::StrCat(absl::string_view(where.data(), where.size()), status.message())};
}

}  // namespace

MapFileCheck CheckMapBytes(std::span<const std::byte> bytes, std::shared_ptr<const void> storage) {
  MapFileCheck out;
  absl::StatusOr<MapDirectory> dir = ReadMapDirectory(bytes);
  if (!dir.ok()) {
    out.findings.push_back(FindingFrom(dir.status(), "header block: "));
    return out;
  }
  if (dir->file_bytes != bytes.size()) {
    out.findings.push_back(
        {std::string(kCheckStructure),
         absl::StrCat("offset ", bytes.size(), ": file truncated or extended: header says ",
                      dir->file_bytes, " bytes but there are ", bytes.size())});
    return out;
  }
  for (uint32_t t = 0; t < dir->tiles.size(); ++t) {
    const MapTileEntry& e = dir->tiles[t];
    if (e.offset > bytes.size() || e.bytes > bytes.size() - e.offset) {
      out.findings.push_back({std::string(kCheckStructure),
                              absl::StrCat("tile ", t, ": directory points outside the file")});
      continue;
    }
    absl::StatusOr<TileView> tile = LoadTileView(*dir, t, bytes.subspan(e.offset, e.bytes));
    if (!tile.ok()) {
      out.findings.push_back(FindingFrom(
          tile.status(), absl::StrCat("tile ", t, " (grid ", e.grid_x, ",", e.grid_z, "): ")));
    }
  }
  if (!out.findings.empty()) return out;
  // The structural checks are CheckMap's, which reports each problem rather than the first.
  absl::StatusOr<std::shared_ptr<const NavMap>> map =
      LoadMapViewUnchecked(bytes, std::move(storage));
  if (!map.ok()) {
    out.findings.push_back(FindingFrom(map.status(), ""));
    return out;
  }
  out.map = *std::move(map);
  return out;
}

MapFileCheck CheckMapFile(const std::string& path) {
  absl::StatusOr<std::shared_ptr<const MappedFile>> file = MappedFile::Open(path);
  if (!file.ok()) {
    MapFileCheck out;
    out.findings.push_back({std::string(kCheckStructure), std::string(file.status().message())});
    return out;
  }
  const std::span<const std::byte> bytes = (*file)->bytes();
  return CheckMapBytes(bytes, *std::move(file));
}

}  // namespace waymesh
