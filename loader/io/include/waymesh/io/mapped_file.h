#pragma once
// A read-only memory mapping of a whole file, unmapped on destruction.

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace waymesh {

class MappedFile {
 public:
  // Maps `path` read-only. Errors name the path and the failing call.
  static absl::StatusOr<std::shared_ptr<const MappedFile>> Open(const std::string& path);

  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  // The file's bytes, page-aligned.
  std::span<const std::byte> bytes() const { return {data_, size_}; }
  // The same bytes as text for a parser (their encoding is the parser's to check).
  std::string_view text() const { return {reinterpret_cast<const char*>(data_), size_}; }

 private:
  MappedFile(const std::byte* data, size_t size) : data_(data), size_(size) {}

  const std::byte* data_;
  size_t size_;
};

}  // namespace waymesh
