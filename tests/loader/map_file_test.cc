// `.wmesh` round trips: compile -> load gives back every polygon, link and metadata field, for
// the whole map, for each tile on its own, from memory and from a file.

#include "waymesh/format/map_file.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "waymesh/format/map_tiles.h"
#include "wmesh_round_trip.h"
#include "wmesh_test_meshes.h"

namespace waymesh {
namespace {

using testing::Across;
using testing::Compiled;
using testing::CompileForRoundTrip;
using testing::ExpectInfoEq;
using testing::ExpectLinksEq;
using testing::ExpectPolygonsEq;
using testing::GridMesh;
using testing::HandMadeMesh;
using testing::LoadOrDie;

TEST(MapFileTest, HandMadeMapRoundTrips) {
  const RepairedMesh mesh = HandMadeMesh();
  const Compiled c = CompileForRoundTrip(mesh);
  std::shared_ptr<const NavMap> map = LoadOrDie(c);
  ASSERT_NE(map, nullptr);
  ASSERT_EQ(map->tile_count(), 3u);
  ExpectInfoEq(map->info(), mesh.info);
  ExpectPolygonsEq(mesh, c.placement, *map);
  ExpectLinksEq(mesh, c.placement, *map);
  // The cross-tile edge 2 <-> 3 goes through cross links in both directions.
  EXPECT_NE(c.placement[2].tile, c.placement[3].tile);
  EXPECT_EQ(map->tile(c.placement[2].tile).cross_links.size(), 1u);
  EXPECT_EQ(map->tile(c.placement[3].tile).cross_links.size(), 1u);
  EXPECT_EQ(map->TileAt(1, 1), nullptr);
  ASSERT_NE(map->TileAt(0, 1), nullptr);
  EXPECT_EQ(map->TileAt(0, 1)->poly_count(), 2u);
}

TEST(MapFileTest, GridMapRoundTrips) {
  const RepairedMesh mesh = GridMesh(40, 30, 1.0f, 16.0f);
  const Compiled c = CompileForRoundTrip(mesh);
  std::shared_ptr<const NavMap> map = LoadOrDie(c);
  ASSERT_NE(map, nullptr);
  EXPECT_EQ(map->tile_count(), 3u * 2u);
  ExpectInfoEq(map->info(), mesh.info);
  ExpectPolygonsEq(mesh, c.placement, *map);
}

TEST(MapFileTest, PlacementIsABijection) {
  const RepairedMesh mesh = GridMesh(20, 20, 1.0f, 8.0f);
  const Compiled c = CompileForRoundTrip(mesh);
  std::shared_ptr<const NavMap> map = LoadOrDie(c);
  ASSERT_NE(map, nullptr);
  std::vector<std::vector<int>> seen(map->tile_count());
  for (uint32_t t = 0; t < map->tile_count(); ++t) seen[t].assign(map->tile(t).poly_count(), 0);
  for (PolyIndex at : c.placement) seen[at.tile][at.poly]++;
  for (const auto& tile : seen) {
    for (int count : tile) EXPECT_EQ(count, 1);
  }
}

TEST(MapFileTest, NeighboursAreSymmetricAcrossTiles) {
  const RepairedMesh mesh = GridMesh(24, 24, 1.0f, 8.0f);
  std::shared_ptr<const NavMap> map = LoadOrDie(CompileForRoundTrip(mesh));
  ASSERT_NE(map, nullptr);
  size_t cross = 0;
  for (const TileView& t : map->tiles()) {
    cross += t.cross_links.size();
    for (uint32_t p = 0; p < t.poly_count(); ++p) {
      for (uint32_t i = 0; i < t.corner_count(p); ++i) {
        const PolyIndex self{t.index, p};
        const std::optional<PolyIndex> other = Across(*map, self, i);
        if (!other) continue;
        int back = 0;
        for (uint32_t j = 0; j < map->tile(other->tile).corner_count(other->poly); ++j) {
          back += Across(*map, *other, j) == self;
        }
        EXPECT_EQ(back, 1);
      }
    }
  }
  EXPECT_GT(cross, 0u);
}

TEST(MapFileTest, VerticesAreTileLocal) {
  const RepairedMesh mesh = HandMadeMesh();
  const Compiled c = CompileForRoundTrip(mesh);
  std::shared_ptr<const NavMap> map = LoadOrDie(c);
  ASSERT_NE(map, nullptr);
  size_t total = 0;
  for (const TileView& t : map->tiles()) total += t.vertices.size();
  // c and h are shared by tiles (0,0) and (1,0): stored once in each.
  EXPECT_EQ(total, mesh.vertices.size() + 2);
  EXPECT_EQ(map->info().vertex_count, mesh.vertices.size());
}

TEST(MapFileTest, EachTileLoadsOnItsOwn) {
  const RepairedMesh mesh = HandMadeMesh();
  const Compiled c = CompileForRoundTrip(mesh);
  std::shared_ptr<const NavMap> map = LoadOrDie(c);
  ASSERT_NE(map, nullptr);
  // As a server would: read the preamble, then the header block, then single tiles.
  const auto all = std::as_bytes(std::span(*c.bytes));
  absl::StatusOr<uint32_t> header_bytes = ReadMapHeaderBytes(all.first(kMapPreambleBytes));
  ASSERT_TRUE(header_bytes.ok()) << header_bytes.status();
  const std::vector<std::byte> header(all.begin(), all.begin() + *header_bytes);
  absl::StatusOr<MapDirectory> dir = ReadMapDirectory(header);
  ASSERT_TRUE(dir.ok()) << dir.status();
  ExpectInfoEq(dir->info, mesh.info);
  ASSERT_EQ(dir->tiles.size(), map->tile_count());
  for (uint32_t t = 0; t < dir->tiles.size(); ++t) {
    const MapTileEntry& e = dir->tiles[t];
    std::vector<uint32_t> own(e.bytes / sizeof(uint32_t));  // a separate, aligned buffer
    std::memcpy(own.data(), all.data() + e.offset, e.bytes);
    absl::StatusOr<TileView> view = LoadTileView(*dir, t, std::as_bytes(std::span(own)));
    ASSERT_TRUE(view.ok()) << view.status();
    const TileView& whole = map->tile(t);
    EXPECT_EQ(view->grid_x, whole.grid_x);
    EXPECT_EQ(view->grid_z, whole.grid_z);
    EXPECT_EQ(view->poly_count(), e.poly_count);
    EXPECT_EQ(view->vertices.size(), e.vertex_count);
    ASSERT_EQ(view->poly_verts.size(), whole.poly_verts.size());
    EXPECT_TRUE(
        std::equal(view->poly_verts.begin(), view->poly_verts.end(), whole.poly_verts.begin()));
    EXPECT_TRUE(std::equal(view->poly_neighbors.begin(), view->poly_neighbors.end(),
                           whole.poly_neighbors.begin()));
    EXPECT_TRUE(std::equal(view->vertices.begin(), view->vertices.end(), whole.vertices.begin()));
    EXPECT_EQ(view->off_mesh_links.size(), whole.off_mesh_links.size());
    // The view points into the tile's own buffer: nothing was copied.
    const auto* begin = reinterpret_cast<const char*>(own.data());
    const auto* vertices = reinterpret_cast<const char*>(view->vertices.data());
    EXPECT_TRUE(vertices >= begin && vertices < begin + e.bytes);
  }
  // A tile handed the wrong bytes is refused.
  const MapTileEntry& e0 = dir->tiles[0];
  std::vector<uint32_t> other(dir->tiles[1].bytes / 4);
  std::memcpy(other.data(), all.data() + dir->tiles[1].offset, dir->tiles[1].bytes);
  EXPECT_FALSE(LoadTileView(*dir, 0, std::as_bytes(std::span(other))).ok());
  EXPECT_FALSE(LoadTileView(*dir, 7, all.subspan(e0.offset, e0.bytes)).ok());
}

TEST(MapFileTest, HeaderPrefixTooShortIsAnError) {
  const Compiled c = CompileForRoundTrip(HandMadeMesh());
  const auto all = std::as_bytes(std::span(*c.bytes));
  absl::StatusOr<uint32_t> header_bytes = ReadMapHeaderBytes(all);
  ASSERT_TRUE(header_bytes.ok());
  absl::StatusOr<MapDirectory> dir = ReadMapDirectory(all.first(*header_bytes - 1));
  ASSERT_FALSE(dir.ok());
  EXPECT_NE(dir.status().message().find("truncated"), std::string::npos) << dir.status();
}

TEST(MapFileTest, CompilingIsDeterministic) {
  const RepairedMesh mesh = GridMesh(30, 30, 1.0f, 16.0f);
  const Compiled a = CompileForRoundTrip(mesh), b = CompileForRoundTrip(mesh);
  EXPECT_EQ(*a.bytes, *b.bytes);
}

// Memory target: at most about 0.6x Detour's ~120 bytes per triangle polygon, all included.
TEST(MapFileTest, TriangleMeshCostsAtMost70BytesPerPolygon) {
  const RepairedMesh mesh = GridMesh(80, 80, 0.5f, 20.0f);
  const Compiled c = CompileForRoundTrip(mesh);
  const double per_poly = double(c.bytes->size()) / mesh.polygon_count();
  EXPECT_LE(per_poly, 70.0);
  EXPECT_GT(per_poly, 40.0);  // every polygon really is stored
}

TEST(MapFileTest, FileRoundTripThroughMmap) {
  const RepairedMesh mesh = HandMadeMesh();
  const Compiled c = CompileForRoundTrip(mesh);
  const std::string path = ::testing::TempDir() + "/map_file_test.wmesh";
  ASSERT_TRUE(WriteFileAtomically(path, "old contents").ok());
  ASSERT_TRUE(WriteFileAtomically(path, *c.bytes).ok());
  EXPECT_EQ(std::filesystem::file_size(path), c.bytes->size());
  EXPECT_FALSE(std::filesystem::exists(path + ".tmp." + std::to_string(::getpid())));
  absl::StatusOr<std::shared_ptr<const NavMap>> map = LoadMapFile(path);
  ASSERT_TRUE(map.ok()) << map.status();
  ExpectInfoEq((*map)->info(), mesh.info);
  ExpectPolygonsEq(mesh, c.placement, **map);
  std::filesystem::remove(path);
}

TEST(MapFileTest, FileErrorsNameThePath) {
  const std::string dir = ::testing::TempDir() + "/map_file_test_dir";
  std::filesystem::create_directories(dir);
  absl::StatusOr<std::shared_ptr<const NavMap>> missing = LoadMapFile(dir + "/missing.wmesh");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("missing.wmesh"), std::string::npos);
  const std::string empty = dir + "/empty.wmesh";
  std::ofstream(empty).close();
  EXPECT_FALSE(LoadMapFile(empty).ok());
  const std::string text = dir + "/text.wmesh";
  ASSERT_TRUE(WriteFileAtomically(text, "this is not a navigation map at all, sorry").ok());
  absl::StatusOr<std::shared_ptr<const NavMap>> bad = LoadMapFile(text);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("text.wmesh: offset 0: bad magic"), std::string::npos)
      << bad.status();
  EXPECT_FALSE(WriteFileAtomically(dir + "/no/such/dir/x.wmesh", "x").ok());
  std::filesystem::remove_all(dir);
}

TEST(MapFileTest, InconsistentMeshIsRefusedByTheCompiler) {
  RepairedMesh mesh = HandMadeMesh();
  mesh.poly_verts[4] = 999;
  absl::StatusOr<std::string> bytes = CompileMap(mesh);
  ASSERT_FALSE(bytes.ok());
  EXPECT_NE(bytes.status().message().find("vertex 999"), std::string::npos) << bytes.status();
  mesh = HandMadeMesh();
  mesh.poly_tile[0] = 4;  // outside the 2 x 2 grid
  EXPECT_FALSE(CompileMap(mesh).ok());
  mesh = HandMadeMesh();
  mesh.links[0].end_poly = 7;
  EXPECT_FALSE(CompileMap(mesh).ok());
  mesh = HandMadeMesh();
  mesh.detail_tris.pop_back();
  EXPECT_FALSE(CompileMap(mesh).ok());
}

}  // namespace
}  // namespace waymesh
