// `waymesh validate` as a build pipeline runs it: a clean map exits 0; every injected defect
// exits 1 with a line naming the check and the place; bad arguments exit 2.

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "absl/strings/str_format.h"
#include "cli_runner.h"
#include "support/defect_maps.h"
#include "support/test_data.h"
#include "waymesh/format/map_tiles.h"

namespace waymesh::testing {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;

std::string Quote(const std::string& path) { return "'" + path + "'"; }

// Writes `mesh` compiled into `dir` and returns the path.
std::string WriteMap(const std::string& dir, const std::string& name, const RepairedMesh& mesh,
                     std::vector<PolyIndex>* placement = nullptr) {
  const std::string path = dir + "/" + name + ".wmesh";
  WriteFileOrDie(path, CompileOrDie(mesh, placement));
  return path;
}

std::string PolygonPlace(const std::string& map_bytes, PolyIndex at) {
  std::shared_ptr<const NavMap> map = LoadOrDie(map_bytes);
  const TileView& t = map->tile(at.tile);
  return absl::StrFormat("tile %d (%d,%d) polygon %d", t.index, t.grid_x, t.grid_z, at.poly);
}

// A compiled map written to a file, with the map polygon each mesh polygon became.
struct PlacedMap {
  std::string path;
  std::string bytes;
  std::vector<PolyIndex> placement;

  // How validate names mesh polygon `poly`: "tile T (X,Z) polygon P".
  std::string Place(uint32_t poly) const { return PolygonPlace(bytes, placement[poly]); }
};

PlacedMap WritePlacedMap(const std::string& dir, const RepairedMesh& mesh) {
  PlacedMap m;
  m.bytes = CompileOrDie(mesh, &m.placement);
  m.path = dir + "/m.wmesh";
  WriteFileOrDie(m.path, m.bytes);
  return m;
}

// `waymesh validate MAP FLAGS` fails (exit 1) with `finding` among its lines.
void ExpectFinding(const std::string& map, const std::string& flags, const std::string& finding) {
  CliResult r = RunCli("validate " + Quote(map) + " " + flags);
  EXPECT_EQ(r.exit_code, 1) << flags << ": " << r.out;
  EXPECT_THAT(r.out, HasSubstr(finding)) << flags;
}

std::string Pos(Vec3 p) { return absl::StrFormat("%.3f,%.3f,%.3f", p.x, p.y, p.z); }

TEST(ValidateCliTest, HelpAndBadArguments) {
  CliResult help = RunCli("validate --help");
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_THAT(help.out, AllOf(HasSubstr("--max-islands"), HasSubstr("--connected")));
  const std::string dir = TempDir("validate-args");
  const std::string map = WriteMap(dir, "clean", Unity1000Mesh());
  for (const char* args :
       {"--max-islands -1", "--min-area x", "--connected 1,2 3,4,5", "--connected a,b,c 1,2,3",
        "--connected 1,2,3", "--min-area 10 --max-area 5", "--extents 1,-1,1", "--frobnicate"}) {
    CliResult r = RunCli("validate " + Quote(map) + " " + args);
    EXPECT_EQ(r.exit_code, 2) << args << ": " << r.out;
    EXPECT_THAT(r.out, Not(HasSubstr("OK"))) << args;
  }
  CliResult missing = RunCli("validate /nonexistent/m.wmesh");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.out, HasSubstr("/nonexistent/m.wmesh"));
  CliResult pair = RunCli("validate " + Quote(map) + " --connected 1,2,3 4,5,nan");
  EXPECT_THAT(pair.out, HasSubstr("--connected '4,5,nan'"));
}

TEST(ValidateCliTest, CleanRealMapPasses) {
  const std::string dir = TempDir("validate-clean");
  const std::string map = dir + "/1000.wmesh";
  ASSERT_EQ(RunCli("build -q " + Quote(SharedData("unity/1000.navmesh")) + " --tile-size 32 -o " +
                   Quote(map))
                .exit_code,
            0);
  CliResult r =
      RunCli("validate " + Quote(map) + " --max-islands 2 --min-area 1000 --max-area 1500");
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, AllOf(HasSubstr("0 open seams, 0 non-manifold, 0 non-convex"),
                           HasSubstr("islands: 2"), HasSubstr("1000.wmesh: OK")));
  EXPECT_THAT(r.out, Not(HasSubstr("FAIL")));
}

TEST(ValidateCliTest, CorruptedByteFailsTheChecksum) {
  const std::string dir = TempDir("validate-crc");
  const std::string bytes = CompileOrDie(Unity1000Mesh());
  auto directory = ReadMapDirectory(std::as_bytes(std::span(bytes)));
  ASSERT_TRUE(directory.ok());
  const MapTileEntry& last = directory->tiles.back();
  std::string damaged = bytes;
  damaged[last.offset + 20] ^= 0x04;
  WriteFileOrDie(dir + "/m.wmesh", damaged);
  CliResult r = RunCli("validate " + Quote(dir + "/m.wmesh"));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, AllOf(HasSubstr(absl::StrFormat("FAIL checksum: tile %d (grid %d,%d)",
                                                     directory->tiles.size() - 1, last.grid_x,
                                                     last.grid_z)),
                           HasSubstr("CRC32 mismatch"), HasSubstr("FAILED, 1 findings")));
}

TEST(ValidateCliTest, UnlinkedSeamFails) {
  RepairedMesh mesh = Unity1000Mesh();
  const auto edge = FindLinkedEdge(mesh, /*cross_tile=*/true);
  ASSERT_TRUE(edge.has_value());
  MakeWall(&mesh, edge->first);
  MakeWall(&mesh, edge->second);
  const PlacedMap map = WritePlacedMap(TempDir("validate-seam"), mesh);
  CliResult r = RunCli("validate " + Quote(map.path));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, AllOf(HasSubstr("FAIL open-seam: "), HasSubstr(map.Place(edge->first.poly)),
                           HasSubstr(map.Place(edge->second.poly))));
  // --no-topology is how a pipeline would knowingly skip it.
  EXPECT_EQ(RunCli("validate --no-topology " + Quote(map.path)).exit_code, 0);
}

TEST(ValidateCliTest, AsymmetricNeighboursFail) {
  RepairedMesh mesh = Unity1000Mesh();
  const auto edge = FindLinkedEdge(mesh, /*cross_tile=*/false);
  ASSERT_TRUE(edge.has_value());
  MakeWall(&mesh, edge->second);
  const std::string dir = TempDir("validate-asym");
  CliResult r = RunCli("validate " + Quote(WriteMap(dir, "m", mesh)));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("does not link back (asymmetric neighbours)"));
  EXPECT_THAT(r.out, HasSubstr("FAIL non-manifold: "));
}

TEST(ValidateCliTest, NonConvexPolygonFails) {
  RepairedMesh mesh = Unity1000Mesh();
  const std::optional<uint32_t> poly = MakeReflexCorner(&mesh);
  ASSERT_TRUE(poly.has_value());
  const PlacedMap map = WritePlacedMap(TempDir("validate-convex"), mesh);
  ExpectFinding(map.path, "", "FAIL non-convex: " + map.Place(*poly));
}

// Valid checksums, every polygon wound against the map: inspect refuses to load it (as the
// server does) and validate names every polygon.
TEST(ValidateCliTest, ReversedWindingFailsInspectAndValidate) {
  RepairedMesh mesh = Unity1000Mesh();
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    std::reverse(mesh.poly_verts.begin() + mesh.poly_start[p],
                 mesh.poly_verts.begin() + mesh.poly_start[p + 1]);
  }
  const std::string dir = TempDir("validate-winding");
  const std::string map = WriteMap(dir, "m", mesh);
  CliResult inspect = RunCli("inspect " + Quote(map));
  EXPECT_EQ(inspect.exit_code, 1) << inspect.out;
  EXPECT_THAT(inspect.out, HasSubstr("structurally broken"));
  CliResult validate = RunCli("validate --no-topology " + Quote(map));
  EXPECT_EQ(validate.exit_code, 1) << validate.out;
  EXPECT_THAT(validate.out, HasSubstr("FAIL non-convex: "));
  EXPECT_THAT(validate.out, HasSubstr("structure (what the server refuses)"));
}

TEST(ValidateCliTest, ExtraIslandFailsTheIslandLimits) {
  SourceMesh source = Unity1000Source();
  AddDetachedSquare(&source, 2.0f);
  const std::string dir = TempDir("validate-island");
  const std::string map = WriteMap(dir, "m", RepairOrDie(source));
  ExpectFinding(map, "--max-islands 2", "FAIL islands: 3 islands, at most 2 allowed");
  ExpectFinding(map, "--min-island-area 5", "FAIL island-area: island 2 (1 polygons, 4.00 m²");
  EXPECT_EQ(RunCli("validate " + Quote(map) + " --max-islands 3 --min-island-area 4").exit_code, 0);
}

TEST(ValidateCliTest, WalkableAreaOutOfBoundsFails) {
  const std::string dir = TempDir("validate-area");
  const std::string map = WriteMap(dir, "m", Unity1000Mesh());  // 1202.9 m²
  ExpectFinding(map, "--min-area 2000",
                "FAIL walkable-area: 1202.89 m² is below the minimum 2000.00");
  ExpectFinding(map, "--max-area 1000", "FAIL walkable-area: 1202.89 m² is above the maximum");
}

TEST(ValidateCliTest, LinkEndOffMeshFails) {
  RepairedMesh mesh = Unity1000Mesh();
  const Vec3 end = AddLinkEndingOffMesh(&mesh);
  const std::string dir = TempDir("validate-link");
  CliResult r = RunCli("validate " + Quote(WriteMap(dir, "m", mesh)));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, AllOf(HasSubstr("FAIL off-mesh-link: link 0"),
                           HasSubstr(absl::StrFormat("end (%.2f, %.2f, %.2f) is not on the mesh",
                                                     end.x, end.y, end.z))));
}

TEST(ValidateCliTest, ConnectedPairAcrossIslandsFails) {
  SourceMesh source = Unity1000Source();
  const Vec3 square = AddDetachedSquare(&source, 2.0f);
  const RepairedMesh mesh = RepairOrDie(source);
  const std::string dir = TempDir("validate-connected");
  const std::string map = WriteMap(dir, "m", mesh);
  const Vec3 a = Centroid(mesh, 0);
  uint32_t same = 1;
  while (mesh.poly_island[same] != mesh.poly_island[0]) ++same;
  const Vec3 b = Centroid(mesh, same);
  CliResult ok = RunCli("validate " + Quote(map) + " --connected " + Pos(a) + " " + Pos(b));
  EXPECT_EQ(ok.exit_code, 0) << ok.out;
  EXPECT_THAT(ok.out, HasSubstr("connected: 1 pairs, 0 without a complete path"));
  CliResult r = RunCli("validate " + Quote(map) + " --connected " + Pos(a) + " " + Pos(b) +
                       " --connected " + Pos(a) + " " + Pos(square));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, AllOf(HasSubstr("FAIL connected: "),
                           HasSubstr(absl::StrFormat("-> (%.2f, %.2f, %.2f): no complete path: "
                                                     "NO_PATH",
                                                     square.x, square.y, square.z)),
                           HasSubstr("FAILED, 1 findings")));
}

}  // namespace
}  // namespace waymesh::testing
