#include "waymesh/format/map_tile_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "absl/strings/str_cat.h"
#include "waymesh/format/map_structure.h"

namespace waymesh {
namespace {

FileIdentity IdentityOf(const struct stat& st) {
  return FileIdentity{uint64_t(st.st_dev), uint64_t(st.st_ino), uint64_t(st.st_size),
                      int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

absl::Status SystemError(const std::string& path, const char* call) {
  return absl::UnavailableError(absl::StrCat(path, ": ", call, ": ", std::strerror(errno)));
}

absl::Status InPath(const std::string& path, const absl::Status& s) {
  return absl::Status(s.code(), absl::StrCat(path, ": ", s.message()));
}

// Reads exactly `size` bytes at `offset`, retrying short reads and EINTR.
absl::Status ReadFully(int fd, const std::string& path, uint64_t offset, std::byte* out,
                       size_t size) {
  size_t done = 0;
  while (done < size) {
    const ssize_t n = ::pread(fd, out + done, size - done, off_t(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return SystemError(path, "pread");
    if (n == 0) {
      return absl::DataLossError(absl::StrCat(path, ": offset ", offset + done,
                                              ": file ends early (changed while open?)"));
    }
    done += size_t(n);
  }
  return absl::OkStatus();
}

// A tile's bytes and the view pointing into them, freed together.
struct OwnedTile {
  std::unique_ptr<std::byte[]> bytes;  // operator new[] aligns to 16, tiles need 4
  TileView view;
};

}  // namespace

absl::StatusOr<FileIdentity> StatFileIdentity(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return SystemError(path, "stat");
  return IdentityOf(st);
}

absl::StatusOr<FileIdentity> FileIdentityOf(int fd, const std::string& path) {
  struct stat st;
  if (::fstat(fd, &st) != 0) return SystemError(path, "fstat");
  return IdentityOf(st);
}

MapTileFile::~MapTileFile() {
  if (fd_ >= 0) ::close(fd_);
}

absl::StatusOr<std::unique_ptr<MapTileFile>> MapTileFile::Open(const std::string& path) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. It does not
  // change reads from a regular file.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return SystemError(path, "open");
  return OpenDescriptor(fd, path);
}

absl::StatusOr<std::unique_ptr<MapTileFile>> MapTileFile::OpenDescriptor(int fd, std::string name) {
  std::unique_ptr<MapTileFile> file(new MapTileFile(std::move(name), fd));
  const std::string& path = file->path_;
  struct stat st;
  if (::fstat(fd, &st) != 0) return SystemError(path, "fstat");
  if (!S_ISREG(st.st_mode)) return absl::InvalidArgumentError(path + ": not a regular file");
  file->identity_ = IdentityOf(st);
  const uint64_t size = file->identity_.size;

  std::vector<std::byte> header(kMapPreambleBytes);
  if (size < header.size()) {
    return absl::DataLossError(absl::StrCat(path, ": ", size, " bytes, too short for a map"));
  }
  if (absl::Status s = ReadFully(fd, path, 0, header.data(), header.size()); !s.ok()) return s;
  absl::StatusOr<uint32_t> header_bytes = ReadMapHeaderBytes(header);
  if (!header_bytes.ok()) return InPath(path, header_bytes.status());
  if (*header_bytes > size) {
    return absl::DataLossError(absl::StrCat(path, ": header block of ", *header_bytes,
                                            " bytes is longer than the file (", size, ")"));
  }
  header.resize(*header_bytes);
  if (absl::Status s = ReadFully(fd, path, 0, header.data(), header.size()); !s.ok()) return s;
  absl::StatusOr<MapDirectory> dir = ReadMapDirectory(header);
  if (!dir.ok()) return InPath(path, dir.status());
  if (dir->file_bytes != size) {
    return absl::DataLossError(absl::StrCat(path, ": file truncated or extended: header says ",
                                            dir->file_bytes, " bytes but there are ", size));
  }
  file->dir_ = *std::move(dir);
  return file;
}

absl::StatusOr<std::shared_ptr<const TileView>> MapTileFile::ReadTile(uint32_t index) const {
  if (index >= dir_.tiles.size()) {
    return absl::InvalidArgumentError(
        absl::StrCat(path_, ": tile ", index, " of ", dir_.tiles.size(), " does not exist"));
  }
  const MapTileEntry& e = dir_.tiles[index];
  auto tile = std::make_shared<OwnedTile>();
  tile->bytes = std::make_unique<std::byte[]>(e.bytes);
  if (absl::Status s = ReadFully(fd_, path_, e.offset, tile->bytes.get(), e.bytes); !s.ok()) {
    return s;
  }
  absl::StatusOr<TileView> view = LoadTileView(dir_, index, {tile->bytes.get(), e.bytes});
  if (!view.ok()) return InPath(path_, view.status());
  tile->view = *view;
  return std::shared_ptr<const TileView>(tile, &tile->view);
}

absl::StatusOr<ExactLandmarkTable> MapTileFile::ReadExactLandmarks() const {
  const MapSectionEntry& e = dir_.exact_landmarks;
  if (e.bytes == 0) return ExactLandmarkTable();
  std::vector<std::byte> bytes(e.bytes);  // bounded by the file size (checked at open)
  if (absl::Status s = ReadFully(fd_, path_, e.offset, bytes.data(), bytes.size()); !s.ok()) {
    return s;
  }
  absl::StatusOr<ExactLandmarkTable> table = ReadExactLandmarkSection(dir_, bytes);
  if (!table.ok()) return InPath(path_, table.status());
  return table;
}

absl::StatusOr<std::optional<PlanTwin>> MapTileFile::ReadPlanTwin(const NavMap& map) const {
  const MapSectionEntry& e = dir_.plan_twin;
  if (e.bytes == 0) return std::nullopt;
  // Bounded by the file size (checked at open); the twin's tiles point into these bytes, which
  // the allocator aligns for them.
  auto bytes = std::make_shared<std::vector<std::byte>>(e.bytes);
  if (absl::Status s = ReadFully(fd_, path_, e.offset, bytes->data(), bytes->size()); !s.ok()) {
    return s;
  }
  absl::StatusOr<PlanTwin> twin = ReadPlanTwinSection(dir_, map, *bytes, bytes);
  if (!twin.ok()) return InPath(path_, twin.status());
  return std::optional<PlanTwin>(*std::move(twin));
}

absl::StatusOr<std::shared_ptr<const NavMap>> MapTileFile::ReadResident() const {
  auto owned = std::make_shared<std::vector<std::shared_ptr<const TileView>>>();
  std::vector<TileView> views;
  owned->reserve(dir_.tiles.size());
  views.reserve(dir_.tiles.size());
  for (uint32_t i = 0; i < dir_.tiles.size(); ++i) {
    absl::StatusOr<std::shared_ptr<const TileView>> tile = ReadTile(i);
    if (!tile.ok()) return tile.status();
    views.push_back(**tile);
    owned->push_back(*std::move(tile));
  }
  auto map = std::make_shared<const NavMap>(dir_.info, std::move(views), std::move(owned));
  if (absl::Status s = MapStructureStatus(*map); !s.ok()) return InPath(path_, s);
  return map;
}

}  // namespace waymesh
