#include "waymesh/io/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace waymesh {
namespace {

absl::Status SystemError(absl::string_view call, const std::string& path) {
  const int err = errno;
  return absl::ErrnoToStatus(err, absl::StrCat(path, ": ", call, " failed"));
}

}  // namespace

absl::StatusOr<std::shared_ptr<const MappedFile>> MappedFile::Open(const std::string& path) {
  // O_NONBLOCK: a FIFO is refused below instead of waiting for a writer.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return SystemError("open", path);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    absl::Status s = SystemError("fstat", path);
    ::close(fd);
    return s;
  }
  if (!S_ISREG(st.st_mode) || st.st_size == 0) {
    ::close(fd);
    return absl::InvalidArgumentError(absl::StrCat(path, ": not a regular, non-empty file"));
  }
  const size_t size = size_t(st.st_size);
  // No MAP_POPULATE: the CRC pass touches pages in order and the kernel maps cached pages
  // around each fault in batches, which measured no slower than prefaulting (map_open_bench).
  void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  absl::Status mmap_status = data == MAP_FAILED ? SystemError("mmap", path) : absl::OkStatus();
  ::close(fd);  // the mapping keeps the file open
  if (!mmap_status.ok()) return mmap_status;
  return std::shared_ptr<const MappedFile>(
      new MappedFile(static_cast<const std::byte*>(data), size));
}

MappedFile::~MappedFile() { ::munmap(const_cast<std::byte*>(data_), size_); }

}  // namespace waymesh
