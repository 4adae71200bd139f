#pragma once
// Tile-level access to `.wmesh` bytes (docs/map-format.md), for loading tiles on demand: read
// the header block and tile directory once, then validate and view each tile from its own bytes.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "waymesh/core/exact_landmark_table.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/plan_twin.h"
#include "waymesh/core/poly_ref.h"
#include "waymesh/core/vec3.h"
#include "waymesh/format/map_file.h"
#include "waymesh/mesh/repaired_mesh.h"

namespace waymesh {

// Where one tile lives in the file and what it holds (a tile directory entry).
struct MapTileEntry {
  int32_t grid_x = 0;
  int32_t grid_z = 0;
  uint64_t offset = 0;  // byte offset of the tile in the file, multiple of 16
  uint32_t bytes = 0;   // tile size, multiple of 16
  uint32_t crc32 = 0;   // CRC-32 of the tile's bytes
  uint32_t poly_count = 0;
  uint32_t vertex_count = 0;
  Aabb bounds;
};

// Where an optional section lies in the file (bytes 0: the file has none).
struct MapSectionEntry {
  uint64_t offset = 0;
  uint32_t bytes = 0;
  uint32_t crc32 = 0;
};

// The validated header block of a `.wmesh` file: map metadata and the tile directory.
struct MapDirectory {
  uint32_t format_version = 0;
  uint64_t file_bytes = 0;    // size of the whole file, as the header declares it
  uint32_t header_bytes = 0;  // size of the header block; tile 0 starts here
  MapInfo info;
  std::vector<MapTileEntry> tiles;  // sorted by (grid_z, grid_x), contiguous in the file
  // The exact landmark table stored by `waymesh build --exact-landmarks` (versions 2 and 3),
  // right after the last tile; read with ReadExactLandmarkSection.
  MapSectionEntry exact_landmarks;
  // The plan twin stored by `waymesh build --exact-twin` (version 3), after the tiles and the
  // exact landmark section, up to the end of the file; read with ReadPlanTwinSection. Its CRC
  // is in its own header (crc32 here stays 0).
  MapSectionEntry plan_twin;
};

// The first kMapPreambleBytes bytes of a file tell how large its header block is.
inline constexpr size_t kMapPreambleBytes = 32;

// Size of the header block, from at least the first kMapPreambleBytes bytes of a file. Checks
// magic, version and the size's shape only (not yet covered by the CRC): compare it with the
// file size before reading that many bytes.
absl::StatusOr<uint32_t> ReadMapHeaderBytes(std::span<const std::byte> preamble);

// Validates the header block at the start of `bytes` (magic, version, CRC, counts, directory,
// strings, finite floats) and returns it. A prefix of the file holding the header block is
// enough; tiles are not read.
absl::StatusOr<MapDirectory> ReadMapDirectory(std::span<const std::byte> bytes);

// Validates tile `index` of `dir` from exactly its bytes (size, CRC, counts against the
// directory, every index range, finite floats) and returns a view pointing into them.
// `tile_bytes` must be 4-byte aligned and outlive the view. Errors name the file offset.
absl::StatusOr<TileView> LoadTileView(const MapDirectory& dir, uint32_t index,
                                      std::span<const std::byte> tile_bytes);

// Validates and loads a whole map from `bytes`; `storage` keeps them alive for the map.
absl::StatusOr<std::shared_ptr<const NavMap>> LoadMapView(std::span<const std::byte> bytes,
                                                          std::shared_ptr<const void> storage,
                                                          const MapLoadOptions& options = {});

// Validates the exact landmark section of `dir` from exactly its bytes (size, CRC, magic,
// version, landmark count, vertex counts against the directory, finite numbers) and returns
// the table. Errors name the file offset and the section.
absl::StatusOr<ExactLandmarkTable> ReadExactLandmarkSection(const MapDirectory& dir,
                                                            std::span<const std::byte> bytes);

// Appends `table` (built on the map `bytes` hold, which have no section yet) to `bytes` as
// their exact landmark section, making them a version 2 file. An empty table changes nothing;
// a section over 4 GiB is an error.
absl::Status AppendExactLandmarkSection(const ExactLandmarkTable& table, std::string* bytes);

// Validates the plan twin section of `dir` from exactly its bytes (size, CRC, magic, version,
// counts against the directory, the twin's own `.wmesh` image as LoadMapView checks a map, the
// twin on the map's tile grid with every corner one of its tile's map vertices, the cover's
// ranges) and returns the twin of `map` (the map `dir` describes, its tiles validated). The
// twin's tiles point into `bytes`, which `storage` keeps alive; `bytes` must be 4-byte
// aligned. Errors name the file offset and the section.
absl::StatusOr<PlanTwin> ReadPlanTwinSection(const MapDirectory& dir, const NavMap& map,
                                             std::span<const std::byte> bytes,
                                             std::shared_ptr<const void> storage);

// Appends `twin` (built on the map `bytes` hold, which have no plan twin section yet) to
// `bytes` as their plan twin section, making them a version 3 file. A section over 4 GiB is an
// error.
absl::Status AppendPlanTwinSection(const PlanTwin& twin, std::string* bytes);

// The `.wmesh` bytes of a resident map as it is (a version 1 file): its tiles' arrays, BV
// trees and links unchanged. What the plan twin section holds of the twin.
absl::StatusOr<std::string> CompileNavMap(const NavMap& map);

// CompileMap that also tells where every polygon went: (*placement)[p] is the tile index and
// the index inside that tile of the mesh's polygon p.
absl::StatusOr<std::string> CompileMap(const RepairedMesh& mesh, std::vector<PolyIndex>* placement);

// Rewrites the tile and header CRCs so they match the bytes, as far as the header can be
// trusted. Lets tests and fuzzers reach the structural checks behind the checksums.
void ResealMapChecksums(std::span<std::byte> bytes);

}  // namespace waymesh
