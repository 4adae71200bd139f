// `.wmesh` round trips over the real Unity exports in ../shared/data/unity: import, repair,
// compile, load, and compare every polygon, link and metadata field; each tile alone too.

#include <cctype>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "support/test_data.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_tiles.h"
#include "waymesh/import/importers.h"
#include "waymesh/repair/repair.h"
#include "wmesh_round_trip.h"

namespace waymesh {
namespace {

struct RealMap {
  const char* file;
  bool mirror_x;
  float tile_size;
};

class MapFileRealDataTest : public ::testing::TestWithParam<RealMap> {};

TEST_P(MapFileRealDataTest, RoundTrips) {
  ImportOptions import;
  import.mirror_x = GetParam().mirror_x;
  absl::StatusOr<SourceMesh> source =
      ImportFile(testing::SharedData(std::string("unity/") + GetParam().file), import);
  ASSERT_TRUE(source.ok()) << source.status();
  RepairOptions options;
  options.tile_size = GetParam().tile_size;
  RepairReport report;
  absl::StatusOr<RepairedMesh> mesh = RepairMeshes(std::span(&*source, 1), options, &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  ASSERT_GT(mesh->polygon_count(), 10u);

  const testing::Compiled c = testing::CompileForRoundTrip(*mesh);
  std::shared_ptr<const NavMap> map = testing::LoadOrDie(c);
  ASSERT_NE(map, nullptr);
  MapInfo want = mesh->info;  // the compiler writes the counts of what it stored
  want.vertex_count = mesh->vertices.size();
  want.polygon_count = mesh->polygon_count();
  want.off_mesh_link_count = mesh->links.size();
  testing::ExpectInfoEq(map->info(), want);
  testing::ExpectPolygonsEq(*mesh, c.placement, *map);
  testing::ExpectLinksEq(*mesh, c.placement, *map);

  // Tile by tile, each from its own buffer.
  const auto all = std::as_bytes(std::span(*c.bytes));
  absl::StatusOr<MapDirectory> dir = ReadMapDirectory(all);
  ASSERT_TRUE(dir.ok()) << dir.status();
  for (uint32_t t = 0; t < dir->tiles.size(); ++t) {
    const MapTileEntry& e = dir->tiles[t];
    std::vector<uint32_t> own(e.bytes / sizeof(uint32_t));
    std::memcpy(own.data(), all.data() + e.offset, e.bytes);
    absl::StatusOr<TileView> view = LoadTileView(*dir, t, std::as_bytes(std::span(own)));
    ASSERT_TRUE(view.ok()) << view.status();
    EXPECT_EQ(view->poly_count(), map->tile(t).poly_count());
  }
}

// 16 m tiles cut the 80 m LayaNavMesh into many tiles: plenty of cross-tile edges.
TEST(MapFileRealDataTest, SmallTilesMakeCrossTileEdges) {
  ImportOptions import;
  import.mirror_x = true;
  absl::StatusOr<SourceMesh> source =
      ImportFile(testing::SharedData("unity/lear315/LayaNavMesh.obj"), import);
  ASSERT_TRUE(source.ok()) << source.status();
  RepairOptions options;
  options.tile_size = 16.0f;
  RepairReport report;
  absl::StatusOr<RepairedMesh> mesh = RepairMeshes(std::span(&*source, 1), options, &report);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  std::shared_ptr<const NavMap> map = testing::LoadOrDie(testing::CompileForRoundTrip(*mesh));
  ASSERT_NE(map, nullptr);
  EXPECT_GE(map->tile_count(), 9u);
  size_t cross = 0;
  for (const TileView& t : map->tiles()) cross += t.cross_links.size();
  EXPECT_GT(cross, 20u);
}

INSTANTIATE_TEST_SUITE_P(Unity, MapFileRealDataTest,
                         ::testing::Values(RealMap{"1000.navmesh", false, 64.0f},
                                           RealMap{"1100.navmesh", false, 16.0f},
                                           RealMap{"1200.navmesh", false, 8.0f},
                                           RealMap{"lear315/LayaNavMesh.obj", true, 64.0f},
                                           RealMap{"lear315/LayaNavMesh.obj", true, 16.0f}),
                         [](const auto& info) {
                           std::string name = info.param.file;
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name + "_tile" + std::to_string(int(info.param.tile_size));
                         });

}  // namespace
}  // namespace waymesh
