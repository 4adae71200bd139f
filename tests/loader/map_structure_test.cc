// Maps with valid checksums but a broken structure, as a broken or hostile writer makes them:
// polygons wound the wrong way, a polygon linked to itself, a vertex at 1e38, a tile edge of
// 1e-45 m. Loading (inspect, the server) refuses each with what and where, `waymesh validate`
// (CheckMap) lists it, and real maps pass.

#include "waymesh/format/map_structure.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/defect_maps.h"
#include "waymesh/checks/map_checks.h"
#include "waymesh/format/map_file.h"

namespace waymesh {
namespace {

using testing::CompileOrDie;
using ::testing::Contains;
using ::testing::Field;
using ::testing::HasSubstr;
using testing::LoadOrDie;
using testing::Unity1000Mesh;

// What loading `mesh`'s compiled bytes says, and what validate finds in them.
struct Verdict {
  absl::Status load;
  std::vector<MapFinding> findings;
};

Verdict Judge(const RepairedMesh& mesh) {
  const std::string bytes = CompileOrDie(mesh);
  Verdict v;
  v.load = LoadMap(std::make_shared<const std::string>(bytes)).status();
  if (std::shared_ptr<const NavMap> map = LoadOrDie(bytes)) v.findings = CheckMap(map, {}).findings;
  return v;
}

TEST(MapStructureTest, RealMapsAreSound) {
  const std::string bytes = CompileOrDie(Unity1000Mesh());
  auto map = LoadMap(std::make_shared<const std::string>(bytes));
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_TRUE(CheckMapStructure(**map).empty());
  EXPECT_TRUE(CheckCompiledMap(bytes).ok());
}

TEST(MapStructureTest, ReversedWindingIsRefused) {
  RepairedMesh mesh = Unity1000Mesh();
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    std::reverse(mesh.poly_verts.begin() + mesh.poly_start[p],
                 mesh.poly_verts.begin() + mesh.poly_start[p + 1]);
  }
  const Verdict v = Judge(mesh);
  EXPECT_EQ(v.load.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(v.load.message()), HasSubstr("structurally broken: "));
  // Every polygon is reflex at every corner now.
  size_t non_convex = 0;
  for (const MapFinding& f : v.findings) non_convex += f.check == kCheckNonConvex;
  EXPECT_EQ(non_convex, mesh.polygon_count());
}

TEST(MapStructureTest, APolygonLinkedToItselfIsRefused) {
  RepairedMesh mesh = Unity1000Mesh();
  mesh.poly_neighbors[mesh.poly_start[5]] = 5;
  const Verdict v = Judge(mesh);
  EXPECT_EQ(v.load.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(v.load.message()), HasSubstr("structurally broken: non-manifold: "));
  EXPECT_THAT(v.findings, Contains(Field(&MapFinding::message, HasSubstr("links to its own"))));
}

TEST(MapStructureTest, AVertexBeyondTheCoordinateLimitIsRefused) {
  RepairedMesh mesh = Unity1000Mesh();
  mesh.vertices[mesh.poly_verts[0]].x = 1e38f;
  const Verdict v = Judge(mesh);
  EXPECT_THAT(std::string(v.load.message()),
              HasSubstr("is beyond the coordinate limit of ±1000000 m"));
  EXPECT_THAT(v.findings, Contains(Field(&MapFinding::check, std::string(kCheckStructure))));
}

TEST(MapStructureTest, ADenormalTileSizeIsRefused) {
  RepairedMesh mesh = Unity1000Mesh();
  mesh.info.tile_size = 1e-45f;
  const Verdict v = Judge(mesh);
  EXPECT_THAT(std::string(v.load.message()),
              HasSubstr("tile_size 1e-45 m is not in [0.01, 1000000] m"));
  EXPECT_THAT(v.findings, Contains(Field(&MapFinding::message, HasSubstr("tile_size 1e-45"))));
}

}  // namespace
}  // namespace waymesh
