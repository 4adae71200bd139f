// Damaged and hostile `.wmesh` bytes: every single-byte change and every truncation is refused
// with a message naming the offset and the check; with checksums resealed, structural checks
// catch what the CRCs would have, and whatever still loads is in range.

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_tiles.h"
#include "wmesh_test_meshes.h"

namespace waymesh {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

std::string SmallMap() {
  absl::StatusOr<std::string> bytes = CompileMap(testing::HandMadeMesh());
  EXPECT_TRUE(bytes.ok()) << bytes.status();
  return bytes.ok() ? *bytes : "";
}

absl::Status Load(std::string bytes) {
  return LoadMap(std::make_shared<const std::string>(std::move(bytes))).status();
}

absl::Status LoadResealed(std::string bytes) {
  ResealMapChecksums(std::as_writable_bytes(std::span(bytes)));
  return Load(std::move(bytes));
}

template <typename T>
void Poke(std::string* bytes, uint64_t offset, T value) {
  ASSERT_LE(offset + sizeof value, bytes->size());
  std::memcpy(bytes->data() + offset, &value, sizeof value);
}

// Offset in the file of `p`, which points into the loaded copy of `bytes`.
uint64_t OffsetOf(const std::string& bytes, const void* p) {
  return static_cast<const char*>(p) - bytes.data();
}

struct LoadedSmallMap {
  std::shared_ptr<const std::string> bytes = std::make_shared<const std::string>(SmallMap());
  std::shared_ptr<const NavMap> map = *LoadMap(bytes);
  uint64_t Offset(const void* p) const { return OffsetOf(*bytes, p); }
};

// Loads `bytes` in place (no copy), for the loops over every byte.
absl::Status LoadInPlace(std::span<const std::byte> bytes) {
  return LoadMapView(bytes, nullptr).status();
}

bool NamesAnOffset(const absl::Status& s) {
  return s.message().substr(0, 7) == "offset " && s.message().find(": ") != absl::string_view::npos;
}

TEST(MapCorruptionTest, EverySingleByteChangeIsRejected) {
  std::string bytes = SmallMap();
  ASSERT_TRUE(Load(bytes).ok());
  ASSERT_LT(bytes.size(), 8192u);  // keeps the loop fast
  const auto view = std::as_bytes(std::span(bytes));
  for (size_t i = 0; i < bytes.size(); ++i) {
    for (uint8_t flip : {uint8_t{0x01}, uint8_t{0x80}, uint8_t{0xff}}) {
      bytes[i] = char(uint8_t(bytes[i]) ^ flip);
      const absl::Status s = LoadInPlace(view);
      bytes[i] = char(uint8_t(bytes[i]) ^ flip);
      ASSERT_FALSE(s.ok()) << "byte " << i << " ^ " << int(flip) << " was accepted";
      ASSERT_TRUE(NamesAnOffset(s)) << s;
    }
  }
}

TEST(MapCorruptionTest, EveryTruncationIsRejected) {
  const std::string good = SmallMap();
  const auto view = std::as_bytes(std::span(good));
  for (size_t n = 0; n < good.size(); ++n) {
    const absl::Status s = LoadInPlace(view.first(n));
    ASSERT_FALSE(s.ok()) << "truncated to " << n << " bytes was accepted";
    ASSERT_TRUE(NamesAnOffset(s)) << s;
  }
  EXPECT_FALSE(Load(good + std::string(16, '\0')).ok());
}

TEST(MapCorruptionTest, MessagesNameTheFailingCheck) {
  const std::string good = SmallMap();
  std::string bad = good;
  bad[0] = 'X';
  EXPECT_THAT(std::string(Load(bad).message()), HasSubstr("offset 0: bad magic"));

  bad = good;
  Poke<uint32_t>(&bad, 8, 7);
  EXPECT_THAT(std::string(Load(bad).message()),
              HasSubstr("offset 8: unsupported format version 7 (this build reads versions 1 to 3)"));

  bad = good;
  bad[40] ^= 0x10;  // agent radius
  EXPECT_THAT(std::string(Load(bad).message()),
              MatchesRegex("offset 12: header CRC32 mismatch \\(stored 0x[0-9a-f]{8}, computed "
                           "0x[0-9a-f]{8}\\)"));

  absl::StatusOr<MapDirectory> dir = ReadMapDirectory(std::as_bytes(std::span(good)));
  ASSERT_TRUE(dir.ok());
  const MapTileEntry& t1 = dir->tiles[1];
  bad = good;
  bad[t1.offset + t1.bytes / 2] ^= 0x04;
  absl::Status s = Load(bad);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(s.message()),
              MatchesRegex("offset " + std::to_string(t1.offset) + ": tile 1 at offset " +
                           std::to_string(t1.offset) +
                           ": CRC32 mismatch \\(stored 0x[0-9a-f]{8}, computed 0x[0-9a-f]{8}\\)"));

  s = Load(good.substr(0, good.size() - 16));
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss);
  EXPECT_THAT(std::string(s.message()), HasSubstr("truncated"));
  EXPECT_THAT(std::string(Load(good.substr(0, 100)).message()),
              HasSubstr("offset 100: file truncated: 100 bytes, fewer than the 192-byte header"));
  EXPECT_THAT(std::string(Load("").message()), HasSubstr("offset 0: file truncated"));
}

TEST(MapCorruptionTest, HostileCountsAreRefusedBeforeAllocating) {
  const std::string good = SmallMap();
  std::string bad = good;
  Poke<uint32_t>(&bad, 28, 0xFFFFFFFFu);  // tile_count
  EXPECT_THAT(std::string(LoadResealed(bad).message()),
              HasSubstr("offset 28: header says 4294967295 tiles"));
  bad = good;
  Poke<uint32_t>(&bad, 32, 0x7FFFFFFFu);  // island_count
  EXPECT_THAT(std::string(LoadResealed(bad).message()), HasSubstr("2147483647 islands"));
  bad = good;
  Poke<uint32_t>(&bad, 24, 0xFFFFFFF0u);  // header_bytes beyond the file
  EXPECT_THAT(std::string(LoadResealed(bad).message()),
              HasSubstr("offset 24: file truncated: header block has 4294967280 bytes"));
  bad = good;
  Poke<uint32_t>(&bad, 76, 65536u);  // grid_width: 65536 x 2 cells is fine, 65536^2 is not
  Poke<uint32_t>(&bad, 80, 65536u);
  EXPECT_THAT(std::string(LoadResealed(bad).message()), HasSubstr("tile grid 65536 x 65536"));
}

TEST(MapCorruptionTest, IndexRangesAreChecked) {
  const LoadedSmallMap m;
  ASSERT_NE(m.map, nullptr);
  const TileView& t0 = m.map->tile(0);
  const std::string& good = *m.bytes;
  struct Case {
    uint64_t offset;
    uint32_t value;
    std::string message;
  };
  const Case cases[] = {
      {m.Offset(&t0.poly_verts[1]), 999, "poly_verts[1]: vertex 999 >= vertex count"},
      {m.Offset(&t0.poly_neighbors[0]), 57, "poly_neighbors[0]: polygon 57 >= polygon count 3"},
      {m.Offset(&t0.poly_neighbors[0]), kCrossTileBit | 5,
       "poly_neighbors[0]: cross link 5 >= cross link count 1"},
      {m.Offset(&t0.cross_links[0].tile), 3, "cross_links[0]: tile 3 polygon"},
      {m.Offset(&t0.cross_links[0].poly), 2, "cross_links[0]: tile 1 polygon 2 is not"},
      {m.Offset(&t0.poly_island[2]), 2, "poly_island[2]: island 2 >= island count 2"},
      {m.Offset(&t0.poly_start[1]), 2, "poly_start[1]: polygon 0 would have 2 corners"},
      {m.Offset(&t0.poly_start[3]), 12, "poly_start[3]: ends at 12, not at the corner count 10"},
      {m.Offset(&t0.bv_nodes[0].data), 0, "bv leaves hold 1 of 3 polygons"},
      {m.Offset(&t0.bv_nodes[0].data), kBvInternalBit | 3, "bv root does not span the 1 nodes"},
      {m.Offset(&t0.vertices[2].y), 0x7fc00000u, "vertices[2]: coordinate not finite"},
      {m.Offset(&t0.area_prefix[1]), 0xff800000u, "area_prefix[1]: not finite or decreasing"},
      {m.Offset(&t0.off_mesh_links[0].end_tile), 3, "off_mesh_links[0]: end (tile, polygon)"},
      {m.Offset(&t0.off_mesh_links[0].start_poly), 3, "off_mesh_links[0]: start_poly"},
      {m.Offset(&t0.detail_tris[0]), 0x00050100u, "detail_tris[0]: corner index >= 4 corners"},
  };
  for (const Case& c : cases) {
    std::string bad = good;
    Poke(&bad, c.offset, c.value);
    absl::Status s = LoadResealed(bad);
    EXPECT_THAT(std::string(s.message()), HasSubstr(c.message)) << "poke at " << c.offset;
    EXPECT_THAT(std::string(s.message()), HasSubstr("tile 0 at offset ")) << s;
  }
  std::string bad = good;
  Poke<uint8_t>(&bad, m.Offset(&t0.poly_area[1]), 64);
  EXPECT_THAT(std::string(LoadResealed(bad).message()), HasSubstr("poly_area[1]: area 64 >= 64"));
}

TEST(MapCorruptionTest, ErrorsGiveTheFileOffsetOfTheBadValue) {
  const LoadedSmallMap m;
  ASSERT_NE(m.map, nullptr);
  const TileView& t2 = m.map->tile(2);
  std::string bad = *m.bytes;
  const uint64_t at = m.Offset(&t2.poly_verts[4]);
  Poke<uint32_t>(&bad, at, 1234);
  EXPECT_THAT(std::string(LoadResealed(bad).message()),
              MatchesRegex("offset " + std::to_string(at) +
                           ": tile 2 at offset [0-9]+: "
                           "poly_verts\\[4\\]: vertex 1234 >= vertex count 4"));
}

// With CRCs resealed, no single-byte change may crash, and whatever loads must still be
// in range by this test's own independent walk.
TEST(MapCorruptionTest, ResealedSingleByteChangesLoadSafelyOrFail) {
  const LoadedSmallMap m;
  ASSERT_NE(m.map, nullptr);
  const std::string& good = *m.bytes;
  // File ranges of the counts and the index arrays: in this small map, any change there makes
  // an index or count impossible, so it must be refused.
  std::vector<std::pair<uint64_t, uint64_t>> indices = {{24, 40}};
  auto add = [&](auto span) {
    if (!span.empty())
      indices.push_back({m.Offset(span.data()), m.Offset(span.data() + span.size())});
  };
  for (const TileView& t : m.map->tiles()) {
    add(t.poly_start), add(t.poly_verts), add(t.poly_neighbors), add(t.poly_island);
    add(t.cross_links);
  }
  size_t accepted = 0;
  for (size_t i = 0; i < good.size(); ++i) {
    std::string bytes = good;
    bytes[i] = char(uint8_t(bytes[i]) ^ 0x41);
    ResealMapChecksums(std::as_writable_bytes(std::span(bytes)));
    absl::StatusOr<std::shared_ptr<const NavMap>> map =
        LoadMap(std::make_shared<const std::string>(bytes));
    if (!map.ok()) continue;
    ++accepted;
    for (const auto& [begin, end] : indices) {
      ASSERT_FALSE(i >= begin && i < end) << "change at index byte " << i << " was accepted";
    }
    const NavMap& nav = **map;
    for (const TileView& t : nav.tiles()) {
      for (uint32_t p = 0; p < t.poly_count(); ++p) {
        ASSERT_GE(t.corner_count(p), 3u) << "byte " << i;
        ASSERT_LE(t.poly_start[p + 1], t.poly_verts.size()) << "byte " << i;
        for (uint32_t c = t.poly_start[p]; c < t.poly_start[p + 1]; ++c) {
          ASSERT_LT(t.poly_verts[c], t.vertices.size()) << "byte " << i;
          const uint32_t n = t.poly_neighbors[c];
          if (n == kWall) continue;
          if (n & kCrossTileBit) {
            ASSERT_LT(n & ~kCrossTileBit, t.cross_links.size()) << "byte " << i;
            const PolyIndex& l = t.cross_links[n & ~kCrossTileBit];
            ASSERT_LT(l.tile, nav.tile_count()) << "byte " << i;
            ASSERT_LT(l.poly, nav.tile(l.tile).poly_count()) << "byte " << i;
          } else {
            ASSERT_LT(n, t.poly_count()) << "byte " << i;
          }
        }
        ASSERT_LT(t.poly_island[p], nav.info().islands.size()) << "byte " << i;
        ASSERT_LT(t.poly_area[p], kMaxAreas) << "byte " << i;
      }
      for (const OffMeshLink& l : t.off_mesh_links) {
        ASSERT_LT(l.start_poly, t.poly_count()) << "byte " << i;
        ASSERT_LT(l.end_tile, nav.tile_count()) << "byte " << i;
        ASSERT_LT(l.end_poly, nav.tile(l.end_tile).poly_count()) << "byte " << i;
      }
    }
  }
  // Floats, flags, costs and names may change freely (the CRCs guard them).
  EXPECT_GT(accepted, 0u);
}

}  // namespace
}  // namespace waymesh
