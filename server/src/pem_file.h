#pragma once
// Reading one PEM file named by a flag, with errors that name the flag and the path.

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace waymesh::server {

// The file's text (1 byte .. 1 MiB, with a -----BEGIN line). Errors: NotFound (cannot stat),
// PermissionDenied (cannot open), InvalidArgument (empty, too large, not PEM); each message
// starts with "--<flag>: " and names `path`.
absl::StatusOr<std::string> ReadPemFile(absl::string_view flag, const std::string& path);

}  // namespace waymesh::server
