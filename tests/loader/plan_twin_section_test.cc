// The plan twin section of `.wmesh` (waymesh build --exact-twin): the stored twin loads as the
// twin built at load would be (same polygons, same cover), exact paths through it keep the
// map's lengths, files without it load as before, and a damaged or foreign section is refused
// with a message naming it, by the whole-map loader, the tile file and `waymesh validate`.

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

#include "gmock/gmock.h"
#include "map_bytes_editing.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"
#include "support/exact_pair_comparison.h"
#include "support/sanitizer.h"
#include "support/test_data.h"
#include "waymesh/build/map_build.h"
#include "waymesh/core/exact_path.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/core/plan_twin.h"
#include "waymesh/core/search_tables.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_tile_file.h"
#include "waymesh/format/map_tiles.h"

// A namespace of its own: CI's unity build puts this file beside others with helpers named alike.
namespace waymesh::plan_twin_section_test {
namespace {

using ::testing::HasSubstr;
using testing::FieldAt;
using testing::Reseal;
using testing::SetFieldAt;

// FileHeader: version, file_bytes (docs/map-format.md).
constexpr size_t kVersionAt = 8;
constexpr size_t kFileBytesAt = 16;
// Plan twin section header: map polygons, cover count, twin bytes; then cover_start at 48.
constexpr size_t kMapPolygonsAt = 16;
constexpr size_t kCoverCountAt = 24;
constexpr size_t kCoverStartAt = 48;

absl::StatusOr<std::shared_ptr<const NavMap>> Load(std::string bytes) {
  return LoadMap(std::make_shared<const std::string>(std::move(bytes)));
}

// The 200 m demo town's bytes with its plan twin stored, as `waymesh build --exact-twin`
// stores it; and where the section starts (the plain file's end).
struct TownWithTwin {
  std::string bytes;
  size_t section = 0;
  PlanTwinBuild stats;
};

const TownWithTwin& StoredTown() {
  static const TownWithTwin town = [] {
    TownWithTwin t;
    t.bytes = testing::Town().bytes;
    t.section = t.bytes.size();
    const absl::Status s = StorePlanTwin(&t.bytes, &t.stats);
    EXPECT_TRUE(s.ok()) << s;
    return t;
  }();
  return town;
}

uint64_t AlignUp16(uint64_t n) { return (n + 15) & ~uint64_t{15}; }

// Where the cover's entries start in the file (after cover_start).
size_t CoverAt(const TownWithTwin& t) {
  const uint64_t polygons = FieldAt<uint64_t>(t.bytes, t.section + kMapPolygonsAt);
  return t.section + AlignUp16(kCoverStartAt + 4 * (polygons + 1));
}

// Where the twin's image starts in the file (after the cover).
size_t ImageAt(const TownWithTwin& t) {
  const uint64_t cover = FieldAt<uint64_t>(t.bytes, t.section + kCoverCountAt);
  return t.section + AlignUp16(CoverAt(t) - t.section + 8 * cover);
}

TEST(PlanTwinSectionTest, StoredTwinEqualsTheTwinBuiltAtLoad) {
  const TownWithTwin& t = StoredTown();
  ASSERT_TRUE(t.stats.stored);
  EXPECT_EQ(FieldAt<uint32_t>(t.bytes, kVersionAt), 3u);
  EXPECT_EQ(t.stats.section_bytes, t.bytes.size() - t.section);
  absl::StatusOr<std::shared_ptr<const NavMap>> map = Load(t.bytes);
  ASSERT_TRUE(map.ok()) << map.status();
  const std::shared_ptr<const PlanTwin>& stored = (*map)->search_tables()->exact_twin;
  ASSERT_NE(stored, nullptr);  // used without asking for it
  absl::StatusOr<PlanTwin> built = BuildPlanTwin(*testing::Town().map);
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_EQ(stored->report.polygons_before, built->report.polygons_before);
  EXPECT_EQ(stored->report.polygons_after, built->report.polygons_after);
  EXPECT_EQ(stored->report.vertices_removed, built->report.vertices_removed);
  EXPECT_EQ(stored->cover_start, built->cover_start);
  ASSERT_EQ(stored->cover.size(), built->cover.size());
  for (size_t i = 0; i < built->cover.size(); ++i) EXPECT_EQ(stored->cover[i], built->cover[i]);
  ASSERT_EQ(stored->map->tile_count(), built->map->tile_count());
  for (uint32_t ti = 0; ti < built->map->tile_count(); ++ti) {
    const TileView &a = stored->map->tile(ti), &b = built->map->tile(ti);
    EXPECT_TRUE(std::ranges::equal(a.poly_verts, b.poly_verts)) << "tile " << ti;
    EXPECT_TRUE(std::ranges::equal(a.poly_neighbors, b.poly_neighbors)) << "tile " << ti;
    EXPECT_TRUE(std::ranges::equal(a.cross_links, b.cross_links)) << "tile " << ti;
  }
  // Its own tables are built at load, as for a twin built there.
  EXPECT_NE(stored->map->search_tables(), nullptr);
}

// Exact paths through the stored twin: the lengths and statuses of the map's own search.
TEST(PlanTwinSectionTest, ExactPathsThroughTheStoredTwinKeepTheMapsLengths) {
  absl::StatusOr<std::shared_ptr<const NavMap>> with = Load(StoredTown().bytes);
  ASSERT_TRUE(with.ok()) << with.status();
  NavQuery through_twin(*with), plain(testing::Town().map);
  const int pairs = testing::kUnderSanitizer ? 20 : 80;
  const testing::ExactPairComparison c = testing::CompareExactPairs(
      plain, through_twin, ExactReadyFilter(*testing::Town().map), pairs, 11);
  EXPECT_GT(c.compared, pairs / 2);
  EXPECT_LT(c.fast_nodes, c.plain_nodes);
}

// Both sections: the landmark table right after the tiles, the twin after it; the twin reads
// the stored table through its vertices. Appending the table after the twin is refused.
TEST(PlanTwinSectionTest, LandmarkSectionAndTwinTogether) {
  std::string bytes = testing::Town().bytes;
  StoredIndexBuild stats;
  ASSERT_TRUE(
      FinishCompiledMap({.exact_landmarks = true, .exact_twin = true}, &bytes, &stats).ok());
  EXPECT_GT(stats.exact_landmarks.landmarks, 0u);
  EXPECT_TRUE(stats.exact_twin.stored);
  EXPECT_EQ(FieldAt<uint32_t>(bytes, kVersionAt), 3u);
  absl::StatusOr<std::shared_ptr<const NavMap>> map = Load(bytes);
  ASSERT_TRUE(map.ok()) << map.status();
  const SearchTables& tables = *(*map)->search_tables();
  EXPECT_FALSE(tables.exact_landmarks.empty());
  ASSERT_NE(tables.exact_twin, nullptr);
  EXPECT_FALSE(tables.exact_twin->map->search_tables()->exact_landmarks.empty());

  const absl::Status late = AppendExactLandmarkSection(tables.exact_landmarks, &bytes);
  EXPECT_EQ(late.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(AppendPlanTwinSection(*tables.exact_twin, &bytes).code(),
            absl::StatusCode::kFailedPrecondition);
}

// A map merged well already (aurora-merged: the twin would keep 0.95 of its polygons) gets
// no section and stays a version 1 file.
TEST(PlanTwinSectionTest, MapsTheTwinWouldNotCutStayVersionOne) {
  BuildOptions options;
  options.repair.merge = false;
  options.stored.exact_twin = true;
  const std::string input = testing::SharedData("polyanya/meshes/aurora-merged.mesh");
  absl::StatusOr<BuildResult> r = BuildMap({&input, 1}, options);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->stored.exact_twin.stored);
  EXPECT_GT(r->stored.exact_twin.report.polygons_after * 3,
            r->stored.exact_twin.report.polygons_before * 2);
  EXPECT_EQ(FieldAt<uint32_t>(r->bytes, kVersionAt), 1u);
  absl::StatusOr<std::shared_ptr<const NavMap>> map = Load(r->bytes);
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ((*map)->search_tables()->exact_twin, nullptr);
}

TEST(PlanTwinSectionTest, DamagedSectionIsRefusedNamingIt) {
  std::string bytes = StoredTown().bytes;
  bytes[StoredTown().section + kCoverStartAt + 8] ^= 0x10;  // a cover start
  testing::ExpectRefusedAsDamaged(bytes, "plan twin section CRC32 mismatch");
}

// Resealed sections that no longer fit the map are refused, each naming what is wrong.
TEST(PlanTwinSectionTest, ForeignOrBrokenSectionIsRefusedNamingIt) {
  const TownWithTwin& t = StoredTown();
  const auto refused = [](std::string bytes, const std::string& what) {
    Reseal(&bytes);
    absl::StatusOr<std::shared_ptr<const NavMap>> map = Load(bytes);
    ASSERT_FALSE(map.ok()) << what;
    EXPECT_THAT(map.status().message(), HasSubstr("plan twin section")) << what;
    EXPECT_THAT(map.status().message(), HasSubstr(what));
  };
  std::string polygons = t.bytes;
  SetFieldAt(&polygons, t.section + kMapPolygonsAt,
             FieldAt<uint64_t>(t.bytes, t.section + kMapPolygonsAt) + 1);
  refused(polygons, "not this map's twin");

  std::string cover = t.bytes;
  SetFieldAt<uint64_t>(&cover, t.section + kCoverCountAt, uint64_t{1} << 40);
  refused(cover, "do not fit a section");

  // A cover range running past the cover (found by fuzzing: the ranges are checked before
  // any is read).
  std::string range = t.bytes;
  SetFieldAt<uint32_t>(&range, t.section + kCoverStartAt + 4, 1u << 20);
  refused(range, "cover_start decreases at polygon 1");

  // The first polygon's cover entry pointing past its tile's twin polygons.
  std::string entry = t.bytes;
  SetFieldAt<uint32_t>(&entry, CoverAt(t) + 4, 1u << 30);
  refused(entry, "is not a twin polygon of tile 0");

  // A twin corner raised off the map's vertices (y of the image's first tile's first vertex;
  // its plan view, so its convexity, unchanged).
  std::string moved = t.bytes;
  const size_t image = ImageAt(t);
  const size_t y_at = image + FieldAt<uint32_t>(t.bytes, image + 24) + 80 + 4;
  SetFieldAt<float>(&moved, y_at, FieldAt<float>(t.bytes, y_at) + 0.25f);
  refused(moved, "is not a vertex of the map's tile");

  // The image must be a plain map (no sections of its own, so no twin inside a twin).
  std::string nested = t.bytes;
  SetFieldAt<uint32_t>(&nested, image + kVersionAt, 3);
  refused(nested, "not a version 1 map");

  // Trailing bytes after a version 2 (or 1) file are not a section.
  std::string trailing = testing::Town().bytes + std::string(64, '\0');
  SetFieldAt<uint64_t>(&trailing, kFileBytesAt, trailing.size());
  Reseal(&trailing);
  absl::StatusOr<std::shared_ptr<const NavMap>> map = Load(trailing);
  ASSERT_FALSE(map.ok());
  EXPECT_THAT(map.status().message(), HasSubstr("but the tiles end at"));

  // A version 3 header with nothing after the tiles.
  std::string empty = testing::Town().bytes;
  SetFieldAt<uint32_t>(&empty, kVersionAt, 3);
  Reseal(&empty);
  map = Load(empty);
  ASSERT_FALSE(map.ok());
  EXPECT_THAT(map.status().message(), HasSubstr("plan twin section"));
}

// The server's path: the tile file reads the section on its own, against the resident map.
TEST(PlanTwinSectionTest, TileFileReadsTheSection) {
  const std::string path = ::testing::TempDir() + "/plan_twin_section_test.wmesh";
  ASSERT_TRUE(WriteFileAtomically(path, StoredTown().bytes).ok());
  absl::StatusOr<std::unique_ptr<MapTileFile>> file = MapTileFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status();
  absl::StatusOr<std::shared_ptr<const NavMap>> resident = (*file)->ReadResident();
  ASSERT_TRUE(resident.ok()) << resident.status();
  absl::StatusOr<std::optional<PlanTwin>> twin = (*file)->ReadPlanTwin(**resident);
  ASSERT_TRUE(twin.ok()) << twin.status();
  ASSERT_TRUE(twin->has_value());
  EXPECT_EQ((*twin)->report.polygons_after, StoredTown().stats.report.polygons_after);

  std::string damaged = StoredTown().bytes;
  damaged[damaged.size() - 200] ^= 1;
  ASSERT_TRUE(WriteFileAtomically(path, damaged).ok());
  file = MapTileFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status();  // the header block is sound
  twin = (*file)->ReadPlanTwin(**resident);
  ASSERT_FALSE(twin.ok());
  EXPECT_THAT(twin.status().message(), HasSubstr(path));
  EXPECT_THAT(twin.status().message(), HasSubstr("plan twin section CRC32 mismatch"));

  // A file without the section has no twin.
  ASSERT_TRUE(WriteFileAtomically(path, testing::Town().bytes).ok());
  file = MapTileFile::Open(path);
  ASSERT_TRUE(file.ok()) << file.status();
  twin = (*file)->ReadPlanTwin(**resident);
  ASSERT_TRUE(twin.ok()) << twin.status();
  EXPECT_FALSE(twin->has_value());
}

}  // namespace
}  // namespace waymesh::plan_twin_section_test
