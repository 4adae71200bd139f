#pragma once
// Editing `.wmesh` bytes in tests: read and write fields at byte offsets, reseal the
// checksums, and what every reader must do with damaged bytes.

#include <cstring>
#include <memory>
#include <span>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_file_check.h"
#include "waymesh/format/map_tiles.h"

namespace waymesh::testing {

template <typename T>
T FieldAt(const std::string& bytes, size_t at) {
  T v;
  std::memcpy(&v, bytes.data() + at, sizeof v);
  return v;
}

template <typename T>
void SetFieldAt(std::string* bytes, size_t at, T v) {
  std::memcpy(bytes->data() + at, &v, sizeof v);
}

// Every CRC made to match the (edited) bytes, so the checks behind the checksums are reached.
inline void Reseal(std::string* bytes) {
  ResealMapChecksums(std::as_writable_bytes(std::span(*bytes)));
}

// The loader refuses `bytes` as DATA_LOSS with a message holding `message`, and `waymesh
// validate` reports one checksum finding.
inline void ExpectRefusedAsDamaged(const std::string& bytes, const std::string& message) {
  absl::StatusOr<std::shared_ptr<const NavMap>> map =
      LoadMap(std::make_shared<const std::string>(bytes));
  ASSERT_FALSE(map.ok());
  EXPECT_EQ(map.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(map.status().message(), ::testing::HasSubstr(message));
  const MapFileCheck check = CheckMapBytes(std::as_bytes(std::span(bytes)), nullptr);
  ASSERT_EQ(check.findings.size(), 1u);
  EXPECT_EQ(check.findings[0].check, kCheckChecksum);
}

}  // namespace waymesh::testing
