// `waymesh validate`'s checks as a library: real maps pass, each injected defect is found and
// named with its tile and polygon.

#include "waymesh/checks/map_checks.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>

#include "absl/strings/str_format.h"
#include "support/defect_maps.h"
#include "support/map_builder.h"
#include "support/test_data.h"
#include "waymesh/format/map_file_check.h"
#include "waymesh/format/map_tiles.h"

namespace waymesh::testing {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::Field;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

std::vector<MapFinding> Only(const std::vector<MapFinding>& findings, std::string_view check) {
  std::vector<MapFinding> out;
  for (const MapFinding& f : findings) {
    if (f.check == check) out.push_back(f);
  }
  return out;
}

std::string Place(const NavMap& map, PolyIndex at) {
  const TileView& t = map.tile(at.tile);
  return absl::StrFormat("tile %d (%d,%d) polygon %d", t.index, t.grid_x, t.grid_z, at.poly);
}

MapCheckReport Check(const RepairedMesh& mesh, const MapCheckOptions& options = {},
                     std::vector<PolyIndex>* placement = nullptr,
                     std::shared_ptr<const NavMap>* map_out = nullptr) {
  std::shared_ptr<const NavMap> map = LoadOrDie(CompileOrDie(mesh, placement));
  if (map_out) *map_out = map;
  return map ? CheckMap(map, options) : MapCheckReport{};
}

TEST(MapChecksTest, RealMapsPassEveryCheck) {
  for (const char* file : {"unity/1000.navmesh", "unity/1100.navmesh", "unity/1200.navmesh",
                           "polyanya/meshes/arena-merged.mesh"}) {
    RepairOptions options;
    options.tile_size = kDefectTileSize;
    absl::StatusOr<std::shared_ptr<const NavMap>> map =
        CachedMapFromFile(SharedData(file), options);
    ASSERT_TRUE(map.ok()) << map.status();
    const MapCheckReport report = CheckMap(*map, {});
    EXPECT_THAT(report.findings, IsEmpty()) << file << ": " << FindingLine(report.findings[0]);
    EXPECT_THAT(report.summary, Contains(HasSubstr("0 open seams, 0 non-manifold, 0 non-convex")));
  }
}

TEST(MapChecksTest, UnlinkedSeamAcrossTilesIsAnOpenSeam) {
  for (bool cross_tile : {true, false}) {
    RepairedMesh mesh = Unity1000Mesh();
    const auto edge = FindLinkedEdge(mesh, cross_tile);
    ASSERT_TRUE(edge.has_value());
    MakeWall(&mesh, edge->first);
    MakeWall(&mesh, edge->second);
    std::vector<PolyIndex> placement;
    std::shared_ptr<const NavMap> map;
    const MapCheckReport report = Check(mesh, {}, &placement, &map);
    const std::vector<MapFinding> seams = Only(report.findings, kCheckOpenSeam);
    ASSERT_EQ(seams.size(), 1u) << (report.findings.empty() ? "" : report.findings[0].message);
    EXPECT_EQ(report.findings.size(), 1u);
    const std::string a = Place(*map, placement[edge->first.poly]);
    const std::string b = Place(*map, placement[edge->second.poly]);
    EXPECT_THAT(seams[0].message, AllOf(HasSubstr(a), HasSubstr(b), HasSubstr("not linked")));
    EXPECT_EQ(placement[edge->first.poly].tile != placement[edge->second.poly].tile, cross_tile);
  }
}

TEST(MapChecksTest, OneSidedLinkIsAsymmetric) {
  RepairedMesh mesh = Unity1000Mesh();
  const auto edge = FindLinkedEdge(mesh, /*cross_tile=*/true);
  ASSERT_TRUE(edge.has_value());
  MakeWall(&mesh, edge->first);  // the other side still links
  std::vector<PolyIndex> placement;
  std::shared_ptr<const NavMap> map;
  const MapCheckReport report = Check(mesh, {}, &placement, &map);
  const std::vector<MapFinding> bad = Only(report.findings, kCheckNonManifold);
  ASSERT_EQ(bad.size(), 1u);
  EXPECT_THAT(bad[0].message, AllOf(HasSubstr(Place(*map, placement[edge->second.poly])),
                                    HasSubstr("does not link back")));
}

TEST(MapChecksTest, DuplicatedPolygonIsNonManifold) {
  RepairedMesh mesh = Unity1000Mesh();
  // A second copy of polygon 0, all walls: every edge of polygon 0 now has a polygon on the
  // same side, and its linked edges have three polygons.
  const uint32_t begin = mesh.poly_start[0], end = mesh.poly_start[1];
  for (uint32_t c = begin; c < end; ++c) {
    mesh.poly_verts.push_back(mesh.poly_verts[c]);
    mesh.poly_neighbors.push_back(-1);
  }
  for (uint32_t t = 0; t < end - begin - 2; ++t) mesh.detail_tris.push_back(mesh.detail_tris[t]);
  mesh.poly_start.push_back(uint32_t(mesh.poly_verts.size()));
  mesh.poly_area.push_back(mesh.poly_area[0]);
  mesh.poly_flags.push_back(mesh.poly_flags[0]);
  mesh.poly_tile.push_back(mesh.poly_tile[0]);
  mesh.poly_island.push_back(mesh.poly_island[0]);
  const MapCheckReport report = Check(mesh);
  const std::vector<MapFinding> bad = Only(report.findings, kCheckNonManifold);
  EXPECT_EQ(bad.size(), end - begin);  // one per edge of polygon 0
  EXPECT_THAT(report.findings,
              Contains(Field(&MapFinding::message, HasSubstr("edge shared by 3 polygons"))));
}

TEST(MapChecksTest, ReflexCornerIsNonConvex) {
  RepairedMesh mesh = Unity1000Mesh();
  const std::optional<uint32_t> poly = MakeReflexCorner(&mesh);
  ASSERT_TRUE(poly.has_value());
  std::vector<PolyIndex> placement;
  std::shared_ptr<const NavMap> map;
  const MapCheckReport report = Check(mesh, {}, &placement, &map);
  ASSERT_EQ(report.findings.size(), 1u) << report.findings[0].message;
  EXPECT_EQ(report.findings[0].check, kCheckNonConvex);
  EXPECT_THAT(report.findings[0].message,
              AllOf(HasSubstr(Place(*map, placement[*poly]) + " corner"), HasSubstr("reflex")));
}

TEST(MapChecksTest, LinkEndOffTheMeshIsFound) {
  RepairedMesh mesh = Unity1000Mesh();
  const Vec3 end = AddLinkEndingOffMesh(&mesh);
  const MapCheckReport report = Check(mesh);
  ASSERT_EQ(report.findings.size(), 1u);
  EXPECT_EQ(report.findings[0].check, kCheckOffMeshLink);
  EXPECT_THAT(report.findings[0].message,
              AllOf(HasSubstr("link 0"), HasSubstr(absl::StrFormat("end (%.2f,", end.x)),
                    HasSubstr("not on the mesh")));
  MapCheckOptions skip;
  skip.off_mesh_links = false;
  EXPECT_THAT(Check(mesh, skip).findings, IsEmpty());
}

TEST(MapChecksTest, AttachedLinksAreOnTheMesh) {
  // Links attached by the repair pipeline pass the same rule.
  SourceMesh source = Unity1000Source();
  const Vec3 a = Centroid(Unity1000Mesh(), 0), b = Centroid(Unity1000Mesh(), 5);
  source.links.push_back({a, b, 0.5f, true});
  RepairedMesh mesh = RepairOrDie(source);
  ASSERT_EQ(mesh.links.size(), 1u);
  const MapCheckReport report = Check(mesh);
  EXPECT_THAT(report.findings, IsEmpty());
  EXPECT_THAT(report.summary, Contains(HasSubstr(", 0 ends off the mesh")));
}

TEST(MapChecksTest, IslandLimitsNameTheIsland) {
  SourceMesh source = Unity1000Source();
  const Vec3 square = AddDetachedSquare(&source, 2.0f);
  const RepairedMesh mesh = RepairOrDie(source);
  ASSERT_EQ(mesh.info.islands.size(), 3u);  // 1000.navmesh has two of its own
  MapCheckOptions options;
  options.max_islands = 2;
  options.min_island_area = 10.0;
  const MapCheckReport report = Check(mesh, options);
  const std::vector<MapFinding> count = Only(report.findings, kCheckIslands);
  ASSERT_EQ(count.size(), 1u);
  EXPECT_THAT(count[0].message, HasSubstr("3 islands, at most 2"));
  const std::vector<MapFinding> small = Only(report.findings, kCheckIslandArea);
  ASSERT_EQ(small.size(), 1u);  // the 168 m² island 1 is large enough
  EXPECT_THAT(
      small[0].message,
      AllOf(HasSubstr("island 2 (1 polygons, 4.00 m²"),
            HasSubstr(absl::StrFormat("(%.2f, %.2f, %.2f)", square.x, square.y, square.z))));
  options.max_islands = 3;
  options.min_island_area = 4.0;
  EXPECT_THAT(Check(mesh, options).findings, IsEmpty());
}

TEST(MapChecksTest, WalkableAreaBounds) {
  const RepairedMesh mesh = Unity1000Mesh();
  const double area = mesh.info.walkable_area;
  MapCheckOptions options;
  options.min_area = area * 0.9;
  options.max_area = area * 1.1;
  EXPECT_THAT(Check(mesh, options).findings, IsEmpty());
  options.min_area = area * 1.5;
  MapCheckReport low = Check(mesh, options);
  ASSERT_EQ(low.findings.size(), 1u);
  EXPECT_EQ(low.findings[0].check, kCheckWalkableArea);
  EXPECT_THAT(low.findings[0].message, HasSubstr("below the minimum"));
  options.min_area.reset();
  options.max_area = area * 0.5;
  MapCheckReport high = Check(mesh, options);
  ASSERT_EQ(high.findings.size(), 1u);
  EXPECT_THAT(high.findings[0].message, HasSubstr("above the maximum"));
}

TEST(MapChecksTest, ConnectedPairsNeedACompletePath) {
  SourceMesh source = Unity1000Source();
  const Vec3 square = AddDetachedSquare(&source, 2.0f);
  const RepairedMesh mesh = RepairOrDie(source);
  // Two centroids of island 0, and one of them with the detached square.
  std::vector<uint32_t> island0;
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    if (mesh.poly_island[p] == 0) island0.push_back(p);
  }
  ASSERT_GE(island0.size(), 2u);
  const Vec3 a = Centroid(mesh, island0.front()), b = Centroid(mesh, island0.back());
  MapCheckOptions options;
  options.connected = {{a, b}};
  EXPECT_THAT(Check(mesh, options).findings, IsEmpty());
  options.connected = {{a, b}, {a, square}};
  const MapCheckReport report = Check(mesh, options);
  ASSERT_EQ(report.findings.size(), 1u);
  EXPECT_EQ(report.findings[0].check, kCheckConnected);
  EXPECT_THAT(
      report.findings[0].message,
      AllOf(HasSubstr(absl::StrFormat("-> (%.2f, %.2f, %.2f)", square.x, square.y, square.z)),
            HasSubstr("NO_PATH")));
  options.connected = {{a, Vec3{square.x + 500, square.y, square.z}}};
  EXPECT_THAT(Check(mesh, options).findings[0].message, HasSubstr("END_OFF_MESH"));
}

TEST(MapFileCheckTest, EveryDamagedTileIsReported) {
  const std::string bytes = CompileOrDie(Unity1000Mesh());
  auto dir = ReadMapDirectory(std::as_bytes(std::span(bytes)));
  ASSERT_TRUE(dir.ok()) << dir.status();
  ASSERT_GE(dir->tiles.size(), 3u);
  auto check = [](std::string b) {
    auto storage = std::make_shared<const std::string>(std::move(b));
    return CheckMapBytes(std::as_bytes(std::span(*storage)), storage);
  };
  const MapFileCheck clean = check(bytes);
  EXPECT_THAT(clean.findings, IsEmpty());
  ASSERT_NE(clean.map, nullptr);
  EXPECT_EQ(clean.map->info().polygon_count, Unity1000Mesh().polygon_count());

  std::string damaged = bytes;
  for (uint32_t t : {0u, 2u}) damaged[dir->tiles[t].offset + dir->tiles[t].bytes / 2] ^= 0x10;
  const MapFileCheck bad = check(damaged);
  EXPECT_EQ(bad.map, nullptr);
  ASSERT_EQ(bad.findings.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    const MapTileEntry& e = dir->tiles[i * 2];
    EXPECT_EQ(bad.findings[i].check, kCheckChecksum);
    EXPECT_THAT(
        bad.findings[i].message,
        AllOf(HasSubstr(absl::StrFormat("tile %d (grid %d,%d)", i * 2, e.grid_x, e.grid_z)),
              HasSubstr("CRC32 mismatch"), HasSubstr(absl::StrFormat("offset %d", e.offset))));
  }

  std::string header = bytes;
  header[40] ^= 0x01;  // inside the CRC-covered header block
  const MapFileCheck bad_header = check(header);
  ASSERT_EQ(bad_header.findings.size(), 1u);
  EXPECT_THAT(bad_header.findings[0].message, HasSubstr("header block"));

  const MapFileCheck truncated = check(bytes.substr(0, bytes.size() - 16));
  ASSERT_EQ(truncated.findings.size(), 1u);
  EXPECT_EQ(truncated.findings[0].check, kCheckStructure);
}

TEST(MapFileCheckTest, MissingFileIsAFinding) {
  const MapFileCheck r = CheckMapFile("/nonexistent/dir/x.wmesh");
  ASSERT_EQ(r.findings.size(), 1u);
  EXPECT_THAT(r.findings[0].message, HasSubstr("/nonexistent/dir/x.wmesh"));
}

}  // namespace
}  // namespace waymesh::testing
