// LoadMap, LoadMapFile and LoadMapView: header block, then every tile, then a NavMap whose
// tiles point into the bytes.

#include "absl/strings/str_cat.h"
#include "format_error.h"
#include "mapped_file.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/loader/map_file.h"
#include "waymesh/loader/map_tiles.h"

namespace waymesh {

absl::StatusOr<std::shared_ptr<const NavMap>> LoadMapView(std::span<const std::byte> bytes,
                                                          std::shared_ptr<const void> storage,
                                                          const MapLoadOptions& options) {
  absl::StatusOr<MapDirectory> dir = ReadMapDirectory(bytes);
  if (!dir.ok()) return dir.status();
  if (dir->file_bytes != bytes.size()) {
    return wmesh::DataLoss(bytes.size(),
                           absl::StrCat("file truncated or extended: header says ", dir->file_bytes,
                                        " bytes but there are ", bytes.size()));
  }
  std::vector<TileView> tiles;
  tiles.reserve(dir->tiles.size());
  for (uint32_t t = 0; t < dir->tiles.size(); ++t) {
    const MapTileEntry& e = dir->tiles[t];
    absl::StatusOr<TileView> tile = LoadTileView(*dir, t, bytes.subspan(e.offset, e.bytes));
    if (!tile.ok()) return tile.status();
    tiles.push_back(*tile);
  }
  auto map =
      std::make_shared<const NavMap>(std::move(dir->info), std::move(tiles), std::move(storage));
  if (!options.search_tables) return map;
  return WithSearchTables(std::move(map));
}

absl::StatusOr<std::shared_ptr<const NavMap>> LoadMap(std::shared_ptr<const std::string> bytes,
                                                      const MapLoadOptions& options) {
  if (!bytes) return absl::InvalidArgumentError("LoadMap: no bytes");
  const std::span<const std::byte> view = std::as_bytes(std::span(*bytes));
  return LoadMapView(view, std::move(bytes), options);
}

absl::StatusOr<std::shared_ptr<const NavMap>> LoadMapFile(const std::string& path,
                                                          const MapLoadOptions& options) {
  absl::StatusOr<std::shared_ptr<const MappedFile>> file = MappedFile::Open(path);
  if (!file.ok()) return file.status();
  const std::span<const std::byte> bytes = (*file)->bytes();
  absl::StatusOr<std::shared_ptr<const NavMap>> map = LoadMapView(bytes, *std::move(file), options);
  if (!map.ok()) {
    return absl::Status(map.status().code(), absl::StrCat(path, ": ", map.status().message()));
  }
  return map;
}

}  // namespace waymesh
