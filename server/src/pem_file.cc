#include "pem_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace waymesh::server {
namespace {

// PEM files are small; anything larger is the wrong file.
constexpr uintmax_t kMaxPemBytes = 1 << 20;

}  // namespace

absl::StatusOr<std::string> ReadPemFile(absl::string_view flag, const std::string& path) {
  std::error_code ec;
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) {
    return absl::NotFoundError(
        absl::StrCat("--", flag, ": cannot read ", path, ": ", ec.message()));
  }
  if (size == 0 || size > kMaxPemBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": ", path, " has ", size, " bytes, expected 1..", kMaxPemBytes));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::PermissionDeniedError(absl::StrCat("--", flag, ": cannot open ", path));
  std::ostringstream text;
  text << in.rdbuf();
  std::string pem = text.str();
  if (!absl::StrContains(pem, "-----BEGIN ")) {
    return absl::InvalidArgumentError(
        absl::StrCat("--", flag, ": ", path, " is not PEM (no -----BEGIN line)"));
  }
  return pem;
}

}  // namespace waymesh::server
