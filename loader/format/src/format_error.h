#pragma once
// Errors about `.wmesh` bytes: every message starts with where (byte offset in the file) and
// says which check failed.

#include <cstdint>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/string_view.h"

namespace waymesh::wmesh {

// Structurally invalid content at `offset`.
inline absl::Status BadFormat(uint64_t offset, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("offset ", offset, ": ", what));
}

// Missing or damaged bytes (truncation, checksum mismatch) at `offset`.
inline absl::Status DataLoss(uint64_t offset, absl::string_view what) {
  return absl::DataLossError(absl::StrCat("offset ", offset, ": ", what));
}

// "CRC32 mismatch (stored 0x..., computed 0x...)".
inline std::string CrcMismatch(uint32_t stored, uint32_t computed) {
  return absl::StrFormat("CRC32 mismatch (stored 0x%08x, computed 0x%08x)", stored, computed);
}

}  // namespace waymesh::wmesh
