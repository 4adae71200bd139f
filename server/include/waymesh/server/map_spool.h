#pragma once
// Private copies of map files. The server never serves the operator's file itself: an edit in
// place (cp over it, truncation, a bit flip, a slow write) would change bytes under a map that
// was validated at load. Each map is copied into a file of the spool directory that nobody
// else can reach (O_TMPFILE: it has no name, and it vanishes with the last descriptor, crash
// included), and that copy is validated and served, still tile by tile.
//
// The copy is a reflink (FICLONE) where the file system shares blocks between files (btrfs,
// XFS): instant and no extra disk until the original is rewritten. Otherwise copy_file_range
// (an in-kernel copy), otherwise read and write.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "waymesh/format/map_tile_file.h"

namespace waymesh::server {

// How a copy was made.
enum class SpoolCopyMethod { kReflink, kCopyFileRange, kReadWrite };
std::string_view SpoolCopyMethodName(SpoolCopyMethod method);

// A private copy; the descriptor belongs to the holder (MapTileFile::OpenDescriptor takes it).
struct SpooledFile {
  int fd = -1;
  FileIdentity source;  // the original when it was copied (unchanged while it was copied)
  SpoolCopyMethod method = SpoolCopyMethod::kReadWrite;
};

class MapSpool {
 public:
  // Checks that a private file can be made in `dir` (and whether O_TMPFILE works there; where
  // it does not, a named file is made and unlinked at once). FailedPrecondition naming
  // --spool-dir otherwise.
  static absl::StatusOr<std::unique_ptr<MapSpool>> Open(const std::string& dir);

  // Copies the regular file at `path`. Never blocks on a FIFO or device. Errors name the path:
  // FailedPrecondition when it is not a regular file, Aborted when it changed while it was
  // being copied (try again once it has settled), Unavailable for I/O errors (a full spool).
  absl::StatusOr<SpooledFile> Copy(const std::string& path) const;

  const std::string& dir() const { return dir_; }
  // Whether the spool's file system took O_TMPFILE.
  bool anonymous_files() const { return anonymous_files_; }

 private:
  MapSpool(std::string dir, bool anonymous_files)
      : dir_(std::move(dir)), anonymous_files_(anonymous_files) {}
  // A new empty private file (read-write), or the error.
  absl::StatusOr<int> CreatePrivateFile() const;

  std::string dir_;
  bool anonymous_files_;
};

}  // namespace waymesh::server
