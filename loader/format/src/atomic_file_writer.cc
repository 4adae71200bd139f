// WriteFileAtomically: readers of `path` see the old file or the new one, never a partial one.

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

#include "absl/strings/str_cat.h"
#include "waymesh/format/map_file.h"

namespace waymesh {
namespace {

absl::Status SystemError(absl::string_view call, const std::string& path) {
  const int err = errno;
  return absl::ErrnoToStatus(err, absl::StrCat(path, ": ", call, " failed"));
}

absl::Status WriteAll(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return SystemError("write", path);
    bytes.remove_prefix(size_t(n));
  }
  return absl::OkStatus();
}

}  // namespace

absl::Status WriteFileAtomically(const std::string& path, std::string_view bytes) {
  // Same directory as the target, so the rename cannot cross file systems.
  const std::string temp = absl::StrCat(path, ".tmp.", ::getpid());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return SystemError("open", temp);
  absl::Status s = WriteAll(fd, bytes, temp);
  // Data must be on disk before the rename makes it visible under the final name.
  if (s.ok() && ::fsync(fd) != 0) s = SystemError("fsync", temp);
  if (::close(fd) != 0 && s.ok()) s = SystemError("close", temp);
  if (s.ok() && std::rename(temp.c_str(), path.c_str()) != 0) s = SystemError("rename", path);
  if (!s.ok()) ::unlink(temp.c_str());
  return s;
}

}  // namespace waymesh
