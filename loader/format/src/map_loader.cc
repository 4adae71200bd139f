// LoadMap, LoadMapFile and LoadMapView: header block, then every tile, then a NavMap whose
// tiles point into the bytes, then the sections after the tiles, then the structural checks
// (map_structure.h).

#include "absl/strings/str_cat.h"
#include "format_error.h"
#include "map_view_loader.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_structure.h"
#include "waymesh/format/map_tiles.h"
#include "waymesh/io/mapped_file.h"

namespace waymesh {

absl::StatusOr<std::shared_ptr<const NavMap>> LoadMapViewUnchecked(
    std::span<const std::byte> bytes, std::shared_ptr<const void> storage,
    StoredSearchTables* stored) {
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
  StoredSearchTables sections;
  // The directory reader placed the sections inside the file, after the tiles.
  if (const MapSectionEntry& e = dir->exact_landmarks; e.bytes != 0) {
    absl::StatusOr<ExactLandmarkTable> table =
        ReadExactLandmarkSection(*dir, bytes.subspan(e.offset, e.bytes));
    if (!table.ok()) return table.status();
    sections.exact_landmarks = *std::move(table);
  }
  auto map = std::make_shared<const NavMap>(dir->info, std::move(tiles), storage);
  if (const MapSectionEntry& e = dir->plan_twin; e.bytes != 0) {
    absl::StatusOr<PlanTwin> twin =
        ReadPlanTwinSection(*dir, *map, bytes.subspan(e.offset, e.bytes), std::move(storage));
    if (!twin.ok()) return twin.status();
    sections.exact_twin = *std::move(twin);
  }
  if (stored != nullptr) *stored = std::move(sections);
  return map;
}

absl::StatusOr<std::shared_ptr<const NavMap>> LoadMapView(std::span<const std::byte> bytes,
                                                          std::shared_ptr<const void> storage,
                                                          const MapLoadOptions& options) {
  StoredSearchTables stored;
  absl::StatusOr<std::shared_ptr<const NavMap>> map =
      LoadMapViewUnchecked(bytes, std::move(storage), &stored);
  if (!map.ok()) return map.status();
  // Structure first: the search tables assume a well-formed graph.
  if (absl::Status s = MapStructureStatus(**map); !s.ok()) return s;
  if (!options.search_tables) return map;
  // What `waymesh build --exact-landmarks --exact-twin` stored is used as it is: no floods,
  // no twin built at load.
  return WithSearchTables(*std::move(map), {.exact_twin = options.exact_twin}, std::move(stored));
}

absl::Status CheckCompiledMap(const std::string& bytes) {
  absl::StatusOr<std::shared_ptr<const NavMap>> map =
      LoadMapView(std::as_bytes(std::span(bytes)), nullptr, {.search_tables = false});
  if (map.ok()) return absl::OkStatus();
  return absl::InternalError(absl::StrCat(
      "the compiled map fails the checks its readers apply (a bug in the map writer): ",
      map.status().message()));
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
