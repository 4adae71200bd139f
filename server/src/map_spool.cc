#include "waymesh/server/map_spool.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "absl/cleanup/cleanup.h"
#include "absl/strings/str_cat.h"

namespace waymesh::server {
namespace {

// Read-and-write fallback buffer: large enough that syscalls do not dominate.
constexpr size_t kCopyChunkBytes = 1 << 20;

absl::Status SpoolError(const std::string& what, const char* call) {
  return absl::UnavailableError(absl::StrCat(what, ": ", call, ": ", std::strerror(errno)));
}

// copy_file_range cannot copy between these two files: fall back to reading and writing.
bool CopyRangeUnsupported(int err) {
  return err == EXDEV || err == EINVAL || err == ENOSYS || err == EOPNOTSUPP || err == EBADF;
}

// Copies [done, size) of `src` to the same offsets of `dst` with pread/pwrite. Returns the
// offset reached (short when the source ended early).
absl::StatusOr<uint64_t> ReadWriteCopy(int src, int dst, uint64_t done, uint64_t size,
                                       const std::string& path) {
  std::vector<char> buffer(kCopyChunkBytes);
  while (done < size) {
    const ssize_t n =
        ::pread(src, buffer.data(), std::min<uint64_t>(buffer.size(), size - done), off_t(done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return SpoolError(path, "pread");
    if (n == 0) break;
    for (ssize_t written = 0; written < n;) {
      const ssize_t w =
          ::pwrite(dst, buffer.data() + written, size_t(n - written), off_t(done + written));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) return SpoolError(path, "write to the spool");
      written += w;
    }
    done += uint64_t(n);
  }
  return done;
}

// Copies `size` bytes of `src` into the empty `dst`: reflink, else copy_file_range, else
// read/write. Returns the bytes copied and how.
absl::StatusOr<uint64_t> CopyBytes(int src, int dst, uint64_t size, const std::string& path,
                                   SpoolCopyMethod* method) {
  if (::ioctl(dst, FICLONE, src) == 0) {
    *method = SpoolCopyMethod::kReflink;
    struct stat st;
    if (::fstat(dst, &st) != 0) return SpoolError(path, "fstat of the copy");
    return uint64_t(st.st_size);
  }
  *method = SpoolCopyMethod::kCopyFileRange;
  loff_t in = 0, out = 0;
  while (uint64_t(in) < size) {
    const ssize_t n = ::copy_file_range(src, &in, dst, &out, size - uint64_t(in), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && in == 0 && CopyRangeUnsupported(errno)) {
      *method = SpoolCopyMethod::kReadWrite;
      return ReadWriteCopy(src, dst, 0, size, path);
    }
    if (n < 0) return SpoolError(path, "copy_file_range to the spool");
    if (n == 0) break;  // the source is shorter than it was
  }
  return uint64_t(in);
}

}  // namespace

std::string_view SpoolCopyMethodName(SpoolCopyMethod method) {
  switch (method) {
    case SpoolCopyMethod::kReflink:
      return "reflink";
    case SpoolCopyMethod::kCopyFileRange:
      return "copy_file_range";
    case SpoolCopyMethod::kReadWrite:
      return "read/write";
  }
  return "?";
}

absl::StatusOr<std::unique_ptr<MapSpool>> MapSpool::Open(const std::string& dir) {
  std::unique_ptr<MapSpool> spool(new MapSpool(dir, /*anonymous_files=*/true));
  absl::StatusOr<int> probe = spool->CreatePrivateFile();
  if (!probe.ok() && spool->anonymous_files_) {
    spool->anonymous_files_ = false;  // try a named file, unlinked at once
    probe = spool->CreatePrivateFile();
  }
  if (!probe.ok()) {
    return absl::FailedPreconditionError(
        absl::StrCat("--spool-dir ", dir, ": cannot create a private copy of a map there (",
                     probe.status().message(), "); it must be a writable directory on disk"));
  }
  ::close(*probe);
  return spool;
}

absl::StatusOr<int> MapSpool::CreatePrivateFile() const {
  if (anonymous_files_) {
    const int fd = ::open(dir_.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd < 0) return SpoolError(dir_, "open(O_TMPFILE)");
    return fd;
  }
  std::string name = absl::StrCat(dir_, "/.waymesh-map-XXXXXX");
  const int fd = ::mkostemp(name.data(), O_CLOEXEC);
  if (fd < 0) return SpoolError(dir_, "mkostemp");
  ::unlink(name.c_str());  // private from here on, and gone with the descriptor
  return fd;
}

absl::StatusOr<SpooledFile> MapSpool::Copy(const std::string& path) const {
  // O_NONBLOCK: a FIFO renamed over a map must not hold up the reload (or shutdown).
  const int src = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (src < 0) return SpoolError(path, "open");
  absl::Cleanup close_src = [src] { ::close(src); };
  absl::StatusOr<FileIdentity> before = FileIdentityOf(src, path);
  if (!before.ok()) return before.status();
  struct stat st;
  if (::fstat(src, &st) != 0) return SpoolError(path, "fstat");
  if (!S_ISREG(st.st_mode)) {
    return absl::FailedPreconditionError(absl::StrCat(path, ": not a regular file"));
  }
  absl::StatusOr<int> dst = CreatePrivateFile();
  if (!dst.ok()) return dst.status();
  SpooledFile out;
  out.fd = *dst;
  absl::Cleanup close_dst = [&out] {
    if (out.fd >= 0) ::close(out.fd);
  };
  absl::StatusOr<uint64_t> copied = CopyBytes(src, out.fd, before->size, path, &out.method);
  if (!copied.ok()) return copied.status();
  absl::StatusOr<FileIdentity> after = FileIdentityOf(src, path);
  if (!after.ok()) return after.status();
  if (*after != *before || *copied != before->size) {
    return absl::AbortedError(absl::StrCat(path, ": changed while it was being copied (",
                                           before->size, " bytes, then ", after->size,
                                           "); taken once it stops changing"));
  }
  out.source = *before;
  std::move(close_dst).Cancel();
  return out;
}

}  // namespace waymesh::server
