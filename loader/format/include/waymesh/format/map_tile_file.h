#pragma once
// A `.wmesh` file opened for serving tile by tile (docs/map-format.md): the header block is
// read and validated once; each tile is read with pread and validated on its own whenever it
// is asked for, so a server holds only the tiles it uses. The file stays open: a map replaced
// by rename (as `waymesh build` writes) keeps serving the version that was opened. An edit in
// place would change bytes under it, which is why the server opens a private copy it owns
// (OpenDescriptor) rather than the operator's file.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "absl/status/statusor.h"
#include "waymesh/core/nav_map.h"
#include "waymesh/format/map_tiles.h"

namespace waymesh {

// Which file a path named when it was opened: a change means the map was replaced or edited.
struct FileIdentity {
  uint64_t device = 0;
  uint64_t inode = 0;
  uint64_t size = 0;
  int64_t modified_ns = 0;
  bool operator==(const FileIdentity&) const = default;
};

// The identity of the file at `path` now. Errors name the path.
absl::StatusOr<FileIdentity> StatFileIdentity(const std::string& path);
// The identity of the open file `fd`.
absl::StatusOr<FileIdentity> FileIdentityOf(int fd, const std::string& path);

class MapTileFile {
 public:
  // Opens `path` and validates its header block, tile directory and size. Errors name the path
  // and, for bad data, the offset and the failing check.
  // A FIFO, directory or device at `path` is an error at once (opened without blocking).
  static absl::StatusOr<std::unique_ptr<MapTileFile>> Open(const std::string& path);
  // As Open, for the open file `fd`, which the result owns (closed on error too). `name` is
  // what error messages call it.
  static absl::StatusOr<std::unique_ptr<MapTileFile>> OpenDescriptor(int fd, std::string name);
  ~MapTileFile();
  MapTileFile(const MapTileFile&) = delete;
  MapTileFile& operator=(const MapTileFile&) = delete;

  const std::string& path() const { return path_; }
  const MapDirectory& directory() const { return dir_; }
  const FileIdentity& identity() const { return identity_; }
  // Bytes tile `index` occupies in memory once read.
  uint64_t tile_bytes(uint32_t index) const { return dir_.tiles[index].bytes; }

  // Reads and validates tile `index` (< tile count). The view owns its bytes. Thread-safe.
  absl::StatusOr<std::shared_ptr<const TileView>> ReadTile(uint32_t index) const;

  // Reads and validates the exact landmark table the file stores (`waymesh build
  // --exact-landmarks`); an empty table when it has none.
  absl::StatusOr<ExactLandmarkTable> ReadExactLandmarks() const;

  // Reads and validates the plan twin the file stores (`waymesh build --exact-twin`) against
  // `map`, this file's tiles resident (ReadResident); nullopt when it has none. The twin owns
  // its bytes.
  absl::StatusOr<std::optional<PlanTwin>> ReadPlanTwin(const NavMap& map) const;

  // Reads and validates every tile, then the map's structure (map_structure.h): the whole map
  // resident, e.g. to derive what a paged NavMap of this file keeps (digest, landmark table)
  // before the tiles are let go.
  absl::StatusOr<std::shared_ptr<const NavMap>> ReadResident() const;

 private:
  MapTileFile(std::string path, int fd) : path_(std::move(path)), fd_(fd) {}

  std::string path_;
  int fd_ = -1;
  FileIdentity identity_;
  MapDirectory dir_;
};

}  // namespace waymesh
