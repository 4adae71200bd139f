// The exact landmark section of `.wmesh` (waymesh build --exact-landmarks): the stored table
// loads as the table built at load would be (same rows), exact paths keep their lengths with
// fewer nodes, files without it load as before, and a damaged or foreign section is refused
// with a message naming it.

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "map_bytes_editing.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/exact_pair_comparison.h"
#include "support/sanitizer.h"
#include "support/test_data.h"
#include "waymesh/build/map_build.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_tile_file.h"
#include "waymesh/format/map_tiles.h"

namespace waymesh {
namespace {

using ::testing::HasSubstr;
using testing::FieldAt;
using testing::Reseal;
using testing::SetFieldAt;

// FileHeader: version, then the section's place (docs/map-format.md).
constexpr size_t kVersionAt = 8;
constexpr size_t kHeaderBytesAt = 24;
constexpr size_t kSectionOffsetAt = 176;
// Section header: landmark count and vertex count.
constexpr size_t kLandmarkCountAt = 8;
constexpr size_t kVertexCountAt = 24;

// aurora-merged cut in 64 m tiles (vertices repeat at seams) through `waymesh build`'s
// pipeline, with or without the stored table; built once per process.
const BuildResult& AuroraBuild(bool exact_landmarks) {
  static const auto build = [](bool x) {
    BuildOptions options;
    options.repair.merge = false;
    options.repair.tile_size = 64;
    options.stored.exact_landmarks = x;
    const std::string input = testing::SharedData("polyanya/meshes/aurora-merged.mesh");
    absl::StatusOr<BuildResult> r = BuildMap({&input, 1}, options);
    EXPECT_TRUE(r.ok()) << r.status();
    return r.ok() ? *std::move(r) : BuildResult{};
  };
  static const BuildResult plain = build(false), stored = build(true);
  return exact_landmarks ? stored : plain;
}

absl::StatusOr<std::shared_ptr<const NavMap>> LoadWithSection(std::string bytes) {
  return LoadMap(std::make_shared<const std::string>(std::move(bytes)));
}

size_t SectionAt(const std::string& bytes) { return FieldAt<uint64_t>(bytes, kSectionOffsetAt); }

TEST(ExactLandmarkSectionTest, StoredRowsEqualATableBuiltAtLoad) {
  const BuildResult& stored = AuroraBuild(true);
  const BuildResult& plain = AuroraBuild(false);
  ASSERT_FALSE(stored.bytes.empty());
  EXPECT_EQ(FieldAt<uint32_t>(stored.bytes, kVersionAt), 2u);
  EXPECT_EQ(stored.stored.exact_landmarks.landmarks, ExactLandmarkTable::kDefaultCount);
  EXPECT_EQ(stored.stored.exact_landmarks.section_bytes, stored.bytes.size() - plain.bytes.size());
  // The section is appended: the tiles are the plain build's.
  const uint32_t header_bytes = FieldAt<uint32_t>(plain.bytes, kHeaderBytesAt);
  EXPECT_EQ(stored.bytes.substr(header_bytes, plain.bytes.size() - header_bytes),
            plain.bytes.substr(header_bytes));

  absl::StatusOr<std::shared_ptr<const NavMap>> map = LoadWithSection(stored.bytes);
  ASSERT_TRUE(map.ok()) << map.status();
  const ExactLandmarkTable& loaded = (*map)->search_tables()->exact_landmarks;
  ASSERT_TRUE(loaded.Fits(**map));
  const ExactLandmarkTable built = ExactLandmarkTable::Build(**map);
  ASSERT_EQ(loaded.count(), built.count());
  EXPECT_EQ(loaded.step(), built.step());
  for (uint32_t k = 0; k < built.count(); ++k) {
    EXPECT_TRUE(loaded.landmark(k) == built.landmark(k)) << "landmark " << k;
  }
  EXPECT_TRUE(std::equal(loaded.rows().begin(), loaded.rows().end(), built.rows().begin(),
                         built.rows().end()));
  EXPECT_EQ(loaded.bytes(), built.bytes());
}

// Exact paths on the stored table: the lengths of the plain map's, fewer interval nodes.
TEST(ExactLandmarkSectionTest, ExactPathsKeepLengthsWithFewerNodes) {
  auto with = LoadWithSection(AuroraBuild(true).bytes);
  auto without = LoadWithSection(AuroraBuild(false).bytes);
  ASSERT_TRUE(with.ok() && without.ok());
  ASSERT_TRUE((*without)->search_tables()->exact_landmarks.empty());
  NavQuery fast(*with), plain(*without);
  const int pairs = testing::kUnderSanitizer ? 20 : 100;
  const testing::ExactPairComparison c =
      testing::CompareExactPairs(plain, fast, QueryFilter(), pairs, 5);
  EXPECT_GT(c.compared, pairs / 2);
  EXPECT_LT(c.fast_nodes, c.plain_nodes);
}

// Files as written before the section existed (and still, without the flag) are version 1.
TEST(ExactLandmarkSectionTest, FilesWithoutTheSectionStayVersionOne) {
  const BuildResult& plain = AuroraBuild(false);
  EXPECT_EQ(FieldAt<uint32_t>(plain.bytes, kVersionAt), 1u);
  EXPECT_EQ(SectionAt(plain.bytes), 0u);
  EXPECT_EQ(plain.stored.exact_landmarks.landmarks, 0u);
  absl::StatusOr<std::shared_ptr<const NavMap>> map = LoadWithSection(plain.bytes);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_TRUE((*map)->search_tables()->exact_landmarks.empty());
}

TEST(ExactLandmarkSectionTest, DamagedSectionIsRefusedNamingIt) {
  std::string bytes = AuroraBuild(true).bytes;
  ASSERT_FALSE(bytes.empty());
  bytes[bytes.size() - 100] ^= 0x10;  // a row
  testing::ExpectRefusedAsDamaged(bytes, "exact landmark section CRC32 mismatch");
}

// A section resealed after its counts were changed no longer fits the map.
TEST(ExactLandmarkSectionTest, ForeignSectionIsRefusedNamingIt) {
  const std::string good = AuroraBuild(true).bytes;
  const size_t at = SectionAt(good);
  ASSERT_GT(at, 0u);
  std::string vertices = good;
  SetFieldAt(&vertices, at + kVertexCountAt, FieldAt<uint64_t>(good, at + kVertexCountAt) + 1);
  Reseal(&vertices);
  absl::StatusOr<std::shared_ptr<const NavMap>> map = LoadWithSection(vertices);
  ASSERT_FALSE(map.ok());
  EXPECT_EQ(map.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(map.status().message(), HasSubstr("exact landmark section"));
  EXPECT_THAT(map.status().message(), HasSubstr("not this map's table"));

  std::string count = good;
  SetFieldAt<uint32_t>(&count, at + kLandmarkCountAt, ExactLandmarkTable::kMaxCount + 1);
  Reseal(&count);
  map = LoadWithSection(count);
  ASSERT_FALSE(map.ok());
  EXPECT_THAT(map.status().message(), HasSubstr("exact landmark section: 17 landmarks"));

  // Fewer landmarks than stored: the rows no longer fill the section.
  std::string fewer = good;
  SetFieldAt<uint32_t>(&fewer, at + kLandmarkCountAt, 4);
  Reseal(&fewer);
  map = LoadWithSection(fewer);
  ASSERT_FALSE(map.ok());
  EXPECT_THAT(map.status().message(), HasSubstr("exact landmark section"));

  // A version 1 file has no section: its fields are reserved.
  std::string old = good;
  SetFieldAt<uint32_t>(&old, kVersionAt, 1);
  Reseal(&old);
  map = LoadWithSection(old);
  ASSERT_FALSE(map.ok());
  EXPECT_THAT(map.status().message(), HasSubstr("reserved bytes are not zero"));
}

// The server's path: the paged file reads the section on its own.
TEST(ExactLandmarkSectionTest, TileFileReadsTheSection) {
  const std::string path = ::testing::TempDir() + "/exact_landmark_section_test.wmesh";
  ASSERT_TRUE(WriteFileAtomically(path, AuroraBuild(true).bytes).ok());
  absl::StatusOr<std::unique_ptr<MapTileFile>> file = MapTileFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status();
  absl::StatusOr<ExactLandmarkTable> table = (*file)->ReadExactLandmarks();
  ASSERT_TRUE(table.ok()) << table.status();
  absl::StatusOr<std::shared_ptr<const NavMap>> map = LoadWithSection(AuroraBuild(true).bytes);
  ASSERT_TRUE(map.ok());
  const ExactLandmarkTable& loaded = (*map)->search_tables()->exact_landmarks;
  EXPECT_TRUE(std::equal(table->rows().begin(), table->rows().end(), loaded.rows().begin(),
                         loaded.rows().end()));

  std::string damaged = AuroraBuild(true).bytes;
  damaged[SectionAt(damaged) + 40] ^= 1;
  ASSERT_TRUE(WriteFileAtomically(path, damaged).ok());
  file = MapTileFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status();  // the header block is sound
  table = (*file)->ReadExactLandmarks();
  ASSERT_FALSE(table.ok());
  EXPECT_THAT(table.status().message(), HasSubstr(path));
  EXPECT_THAT(table.status().message(), HasSubstr("exact landmark section"));
}

}  // namespace
}  // namespace waymesh
