// Malformed input for every importer: each case must fail (never crash, never succeed) with a
// message that says where: `file:line:column`, `file:line` or the JSON path.

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "waymesh/import/importers.h"

namespace waymesh {
namespace {

using ::testing::HasSubstr;

struct BadInput {
  const char* name;
  std::string text;
  const char* expected;  // substring of the error message
};

std::ostream& operator<<(std::ostream& os, const BadInput& c) { return os << c.name; }

// The test name of a case of the tables below.
std::string CaseName(const ::testing::TestParamInfo<BadInput>& info) { return info.param.name; }

// An importer's answer to the bad input `c`: an InvalidArgument error that says where.
void ExpectFailsWithPlace(const absl::StatusOr<SourceMesh>& mesh, const BadInput& c) {
  ASSERT_FALSE(mesh.ok());
  EXPECT_EQ(mesh.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(mesh.status().message()), HasSubstr(c.expected));
}

// A valid export around `body` (which supplies the geometry keys).
std::string Export(const std::string& body) {
  return R"({"format": "waymesh-navmesh-export", "version": 1, )" + body + "}";
}
const std::string kTriangle = R"("vertices": [0, 0, 0, 1, 0, 0, 0, 0, 1], "indices": [0, 1, 2])";

class UnityExportErrorTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(UnityExportErrorTest, FailsWithPlace) {
  ExpectFailsWithPlace(ImportUnityExport(GetParam().text, "t.json"), GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Table, UnityExportErrorTest,
    ::testing::Values(
        BadInput{"Empty", "", "t.json:1:1: invalid JSON"},
        BadInput{"Unterminated", "{\n\"format\": \"waymesh-navmesh-export\",\n \"vertices\": [1, 2",
                 "t.json:3:"},
        BadInput{"TopLevelArray", "[1, 2, 3]", "t.json: must be a JSON object"},
        BadInput{"TrailingGarbage", Export(kTriangle) + " x", "invalid JSON"},
        BadInput{"MissingFormat", R"({"version": 1, )" + kTriangle + "}",
                 "t.json: format is missing"},
        BadInput{"WrongFormat", R"({"format": "other", "version": 1})",
                 "t.json: format = \"other\" is not \"waymesh-navmesh-export\""},
        BadInput{"FormatNotString", R"({"format": 7, "version": 1})", "format must be a string"},
        BadInput{"MissingVersion", R"({"format": "waymesh-navmesh-export", )" + kTriangle + "}",
                 "t.json: version is missing"},
        BadInput{"FutureVersion",
                 R"({"format": "waymesh-navmesh-export", "version": 2, )" + kTriangle + "}",
                 "t.json: version = 2 is not supported (this build reads version 1)"},
        BadInput{"MissingVertices", Export(R"("indices": [])"), "t.json: vertices is missing"},
        BadInput{"MissingIndices", Export(R"("vertices": [])"), "t.json: indices is missing"},
        BadInput{"VerticesNotArray", Export(R"("vertices": 3, "indices": [])"),
                 "t.json: vertices must be an array"},
        BadInput{"VerticesNotTriples", Export(R"("vertices": [0, 0, 0, 1], "indices": [])"),
                 "vertices has 4 numbers, which is not a multiple of 3"},
        BadInput{"BareNaN", Export("\n\"vertices\": [0, NaN, 0], \"indices\": []"),
                 "t.json:2:17: vertices[1] is NaN"},
        BadInput{"BareInfinity", Export(R"("vertices": [0, 0, -Infinity], "indices": [])"),
                 "vertices[2] is infinite"},
        BadInput{"StringNaN", Export(R"("vertices": [0, "NaN", 0], "indices": [])"),
                 "t.json: vertices[1] is NaN"},
        BadInput{"OverflowToInfinity", Export(R"("vertices": [1e999, 0, 0], "indices": [])"),
                 "vertices[0] is infinite"},
        BadInput{"AbsurdCoordinate", Export(R"("vertices": [0, 0, 2e6], "indices": [])"),
                 "vertices[2] = 2000000 is beyond the coordinate limit"},
        BadInput{"JustPastTheLimit", Export(R"("vertices": [0, 0, 1000000.5], "indices": [])"),
                 "vertices[2] = 1000000.5 is beyond the coordinate limit of ±1000000 m"},
        BadInput{"StringInVertices", Export(R"("vertices": [0, "x", 0], "indices": [])"),
                 "vertices[1] is not a number (string 'x')"},
        BadInput{"NestedInVertices", Export(R"("vertices": [[0, 0, 0]], "indices": [])"),
                 "vertices[0] is an array, not a number"},
        BadInput{"NullInIndices", Export(R"("vertices": [], "indices": [null])"),
                 "indices[0] is null, not a number"},
        BadInput{"IndexOutOfRange",
                 Export(R"("vertices": [0, 0, 0, 1, 0, 0, 0, 0, 1], "indices": [0, 1, 9])"),
                 "t.json: indices[2] = 9 is out of range (vertex count 3)"},
        BadInput{"NegativeIndex",
                 Export(R"("vertices": [0, 0, 0, 1, 0, 0, 0, 0, 1], "indices": [-1, 1, 2])"),
                 "indices[0] = -1 is not a vertex index"},
        BadInput{"FractionalIndex",
                 Export(R"("vertices": [0, 0, 0, 1, 0, 0, 0, 0, 1], "indices": [0, 1.5, 2])"),
                 "indices[1] = 1.5 is not an integer"},
        BadInput{"IndicesNotTriples",
                 Export(R"("vertices": [0, 0, 0, 1, 0, 0, 0, 0, 1], "indices": [0, 1, 2, 0])"),
                 "indices has 4 entries, which is not a multiple of 3"},
        BadInput{"AreaCountMismatch", Export(kTriangle + R"(, "triangle_areas": [0, 0])"),
                 "triangle_areas has 2 entries but indices define 1 triangles"},
        BadInput{"UndeclaredTriangleArea", Export(kTriangle + R"(, "triangle_areas": [5])"),
                 "triangle_areas[0] = 5 is not a declared area"},
        BadInput{"AreaIdTooLarge", Export(kTriangle + R"(, "triangle_areas": [64])"),
                 "triangle_areas[0] = 64 is not an area id (0..63)"},
        BadInput{"DuplicateAreaId",
                 Export(kTriangle + R"(, "areas": [{"id": 0, "name": "A", "cost": 1},
                                                   {"id": 0, "name": "B", "cost": 1}])"),
                 "areas[1].id = 0 is declared twice (also at areas[0])"},
        BadInput{"AreaIdOutOfRange",
                 Export(kTriangle + R"(, "areas": [{"id": 64, "name": "A", "cost": 1}])"),
                 "areas[0].id = 64 is out of range [0, 63]"},
        BadInput{"AreaCostZero",
                 Export(kTriangle + R"(, "areas": [{"id": 0, "name": "A", "cost": 0}])"),
                 "areas[0].cost = 0 must be positive"},
        BadInput{"AreaNameMissing", Export(kTriangle + R"(, "areas": [{"id": 0, "cost": 1}])"),
                 "areas[0].name is missing"},
        BadInput{"AgentsEmpty", Export(kTriangle + R"(, "agents": [])"), "agents is empty"},
        BadInput{"AgentRadiusString",
                 Export(kTriangle + R"(, "agents": [{"radius": "big", "height": 2,
                        "max_slope": 45, "step_height": 0.4, "voxel_size": 0.1}])"),
                 "agents[0].radius must be a number, not a string"},
        BadInput{"AgentHeightMissing",
                 Export(kTriangle + R"(, "agents": [{"radius": 0.5, "max_slope": 45,
                        "step_height": 0.4, "voxel_size": 0.1}])"),
                 "agents[0].height is missing"},
        BadInput{"AgentSlopeTooSteep",
                 Export(kTriangle + R"(, "agents": [{"radius": 0.5, "height": 2,
                        "max_slope": 91, "step_height": 0.4, "voxel_size": 0.1}])"),
                 "agents[0].max_slope = 91 is out of range [0, 90]"},
        BadInput{"SceneNameNumber", Export(kTriangle + R"(, "scene": {"name": 5})"),
                 "scene.name must be a string, not an integer"},
        BadInput{"ExporterNotObject", Export(kTriangle + R"(, "exporter": "me")"),
                 "exporter must be an object, not a string"},
        BadInput{"LinkShortPoint",
                 Export(kTriangle + R"(, "off_mesh_links": [{"start": [0, 0], "end": [1, 0, 1]}])"),
                 "off_mesh_links[0].start has 2 numbers, not 3"},
        BadInput{"LinkMissingEnd",
                 Export(kTriangle + R"(, "off_mesh_links": [{"start": [0, 0, 0]}])"),
                 "off_mesh_links[0].end is missing"},
        BadInput{"LinkUndeclaredArea",
                 Export(kTriangle + R"(, "off_mesh_links": [{"start": [0, 0, 0], "end": [1, 0, 1],
                        "area": 9}])"),
                 "off_mesh_links[0].area = 9 is not a declared area"},
        BadInput{"LinkBidirectionalNumber",
                 Export(kTriangle + R"(, "off_mesh_links": [{"start": [0, 0, 0], "end": [1, 0, 1],
                        "bidirectional": 1}])"),
                 "off_mesh_links[0].bidirectional must be true or false"},
        BadInput{"LinkNegativeRadius",
                 Export(kTriangle + R"(, "off_mesh_links": [{"start": [0, 0, 0], "end": [1, 0, 1],
                        "radius": -1}])"),
                 "off_mesh_links[0].radius = -1 is out of range"},
        BadInput{"DuplicateStreamedKey", Export(kTriangle + R"(, "vertices": [0, 0, 0])"),
                 "t.json: vertices appears twice (duplicate key)"},
        BadInput{"DuplicateNestedKey",
                 Export(kTriangle + R"(, "scene": {"name": "a", "name": "b"})"),
                 "scene.name appears twice"},
        BadInput{
            "TooDeep",
            Export(kTriangle + R"(, "extra": )" + std::string(100, '[') + std::string(100, ']')),
            "nests deeper than 32 levels"}),
    CaseName);

// Importers never trust sizes: a short document with a huge-looking array finishes instantly.
TEST(UnityExportErrorTest, TruncatedLargeArrayFailsWithPosition) {
  std::string text = Export(kTriangle);
  text.resize(text.size() - 10);
  const absl::StatusOr<SourceMesh> mesh = ImportUnityExport(text, "cut.json");
  ASSERT_FALSE(mesh.ok());
  EXPECT_THAT(std::string(mesh.status().message()), HasSubstr("cut.json:1:"));
}

class ServerNavJsonErrorTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(ServerNavJsonErrorTest, FailsWithPlace) {
  ExpectFailsWithPlace(ImportServerNavJson(GetParam().text, "t.navmesh"), GetParam());
}

const std::string kPathVertices =
    R"("pathVertices": [{"x": 0, "y": 0, "z": 0}, {"x": 1, "y": 0, "z": 0},
                        {"x": 0, "y": 0, "z": 1}])";

INSTANTIATE_TEST_SUITE_P(
    Table, ServerNavJsonErrorTest,
    ::testing::Values(
        BadInput{"Syntax", "{\"mapID\": 1,\n\"pathVertices\": [}", "t.navmesh:2:"},
        BadInput{"MissingPathVertices", R"({"mapID": 1, "pathTriangles": []})",
                 "t.navmesh: pathVertices is missing"},
        BadInput{"MissingPathTriangles", "{" + kPathVertices + "}",
                 "t.navmesh: pathTriangles is missing"},
        BadInput{"VertexNotObject", R"({"pathVertices": [[0, 0, 0]], "pathTriangles": []})",
                 "pathVertices[0] must be an object, not an array"},
        BadInput{"VertexMissingY", R"({"pathVertices": [{"x": 0, "z": 0}], "pathTriangles": []})",
                 "pathVertices[0].y is missing"},
        BadInput{"VertexXString",
                 R"({"pathVertices": [{"x": "0", "y": 0, "z": 0}], "pathTriangles": []})",
                 "pathVertices[0].x must be a number"},
        BadInput{"VertexAbsurd",
                 R"({"pathVertices": [{"x": 0, "y": -3e7, "z": 0}], "pathTriangles": []})",
                 "pathVertices[0].y = -30000000 is beyond the coordinate limit"},
        BadInput{"TriangleOutOfRange", "{" + kPathVertices + R"(, "pathTriangles": [0, 1, 3]})",
                 "pathTriangles[2] = 3 is out of range (pathVertices has 3 entries)"},
        BadInput{"TriangleNegative", "{" + kPathVertices + R"(, "pathTriangles": [0, -1, 2]})",
                 "pathTriangles[1] = -1 is out of range"},
        BadInput{"TriangleFloat", "{" + kPathVertices + R"(, "pathTriangles": [0, 1, 2.5]})",
                 "pathTriangles[2] = 2.5 is not an integer"},
        BadInput{"TrianglesNotTriples", "{" + kPathVertices + R"(, "pathTriangles": [0, 1, 2, 0]})",
                 "pathTriangles has 4 entries, which is not a multiple of 3"},
        BadInput{"BlockTriangleOutOfRange", "{" + kPathVertices + R"(, "pathTriangles": [0, 1, 2],
                  "blockVertices": [{"x": 0, "y": 0, "z": 0}], "blockTriangles": [0, 0, 5]})",
                 "blockTriangles[2] = 5 is out of range (blockVertices has 1 entries)"},
        BadInput{"BlockTrianglesWithoutVertices",
                 "{" + kPathVertices + R"(, "pathTriangles": [0, 1, 2], "blockTriangles": []})",
                 "blockVertices is missing"},
        BadInput{"SafeVertexNaNString", "{" + kPathVertices + R"(, "pathTriangles": [0, 1, 2],
                  "safeVertices": [{"x": "NaN", "y": 0, "z": 0}], "safeTriangles": []})",
                 "safeVertices[0].x must be a number"},
        BadInput{"MapIdFloat", "{\"mapID\": 1.5, " + kPathVertices + R"(, "pathTriangles": []})",
                 "mapID = 1.5 is not an integer"},
        BadInput{
            "DuplicateKeyDiffers",
            "{" + kPathVertices + R"(, "pathTriangles": [0, 1, 2], "pathTriangles": [0, 2, 1]})",
            "t.navmesh: pathTriangles appears twice with different values"},
        BadInput{"NestedDuplicateDiffers",
                 R"({"pathVertices": [{"x": 0, "y": 0, "z": 0, "x": 1}], "pathTriangles": []})",
                 "pathVertices[0].x appears twice with different values"},
        BadInput{"BoundNotNumber",
                 "{\"endX\": \"80\", " + kPathVertices + R"(, "pathTriangles": []})",
                 "endX must be a number"}),
    CaseName);

// Exporters write integers as floats (2e0, 2.0): where the value is whole it is the integer.
TEST(JsonIntegerTest, WholeNumbersWrittenAsFloatsAreIntegers) {
  const absl::StatusOr<SourceMesh> plain = ImportUnityExport(Export(kTriangle), "t.json");
  const absl::StatusOr<SourceMesh> floats = ImportUnityExport(
      Export(R"("vertices": [0, 0, 0, 1, 0, 0, 0, 0, 1], "indices": [0e0, 1.0, 2e0])"), "t.json");
  ASSERT_TRUE(plain.ok()) << plain.status();
  ASSERT_TRUE(floats.ok()) << floats.status();
  EXPECT_EQ(floats->poly_verts, plain->poly_verts);
  const absl::StatusOr<SourceMesh> nav = ImportServerNavJson(
      "{\"mapID\": 12e0, " + kPathVertices + R"(, "pathTriangles": [0, 1e0, 2.0]})", "t.navmesh");
  ASSERT_TRUE(nav.ok()) << nav.status();
  EXPECT_EQ(nav->poly_verts, plain->poly_verts);
}

class ObjErrorTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(ObjErrorTest, FailsWithPlace) {
  ExpectFailsWithPlace(ImportObj(GetParam().text, "t.obj"), GetParam());
}

const std::string kThreeVertices = "v 0 0 0\nv 1 0 0\nv 0 0 1\n";

INSTANTIATE_TEST_SUITE_P(
    Table, ObjErrorTest,
    ::testing::Values(
        BadInput{"TwoCoordinates", "# c\nv 1 2\n", "t.obj:2: vertex has 2 numbers"},
        BadInput{"FiveNumbers", "v 1 2 3 4 5\n", "t.obj:1: vertex has 5 numbers"},
        BadInput{"BadNumber", "\n\nv 1 2 abc\n", "t.obj:3:7: bad number 'abc'"},
        BadInput{"NaN", "v nan 0 0\n", "t.obj:1:3: x coordinate 'nan' is NaN"},
        BadInput{"Infinity", "v 0 -inf 0\n", "t.obj:1:5: y coordinate '-inf' is infinite"},
        BadInput{"Absurd", "v 0 0 1e300\n", "t.obj:1:7: z coordinate '1e300' = 1e+300 is beyond"},
        BadInput{"Overflow", "v 0 0 1e999\n", "z coordinate '1e999' is infinite"},
        BadInput{"IndexOutOfRange", kThreeVertices + "f 1 2 9\n",
                 "t.obj:4:7: face index 9 out of range (3 vertices so far)"},
        BadInput{"IndexZero", kThreeVertices + "f 0 1 2\n", "t.obj:4:3: face index 0 out of range"},
        BadInput{"RelativeTooFar", kThreeVertices + "f -1 -2 -4\n",
                 "t.obj:4:9: face index -4 out of range (3 vertices so far)"},
        BadInput{"ForwardReference", "v 0 0 0\nv 1 0 0\nf 1 2 3\nv 0 0 1\n",
                 "t.obj:3:7: face index 3 out of range (2 vertices so far)"},
        BadInput{"TwoCorners", kThreeVertices + "f 1 2\n", "t.obj:4: face has 2 corners"},
        BadInput{"EmptyFace", kThreeVertices + "f # nothing\n", "t.obj:4: face has 0 corners"},
        BadInput{"BadCornerText", kThreeVertices + "f 1 2/x 3\n",
                 "t.obj:4:5: bad face index '2/x'"},
        BadInput{"TooManySlashes", kThreeVertices + "f 1/1/1/1 2 3\n", "bad face index '1/1/1/1'"},
        BadInput{"EmptyNormal", kThreeVertices + "f 1// 2 3\n", "bad face index '1//'"},
        BadInput{"EmptyTexture", kThreeVertices + "f 1/ 2 3\n", "bad face index '1/'"},
        BadInput{"FloatIndex", kThreeVertices + "f 1.0 2 3\n", "bad face index '1.0'"},
        BadInput{"UnknownStatement", kThreeVertices + "  xyz 1 2\n",
                 "t.obj:4:3: unknown statement 'xyz'"},
        BadInput{"BinaryGarbage", std::string("\x01\x02\xff", 3),
                 "unknown statement '\\x01\\x02\\xff'"},
        BadInput{"CrLfLineNumbers", "v 0 0 0\r\nv 1 0 0\r\nv 0 0 x\r\n",
                 "t.obj:3:7: bad number 'x'"}),
    CaseName);

class PolyanyaErrorTest : public ::testing::TestWithParam<BadInput> {};

TEST_P(PolyanyaErrorTest, FailsWithPlace) {
  ExpectFailsWithPlace(ImportPolyanyaMesh(GetParam().text, "t.mesh"), GetParam());
}

// The two-triangle example of format.txt, valid; cases below break one thing each.
const std::string kSquareHead = "mesh\n2\n4 2\n";
const std::string kSquareVertices =
    "0.0 0.0 2 0 -1\n1.5 0.0 3 0 1 -1\n1.5 1.5 2 1 -1\n0.0 1.5 3 -1 1 0\n";
const std::string kSquarePolygons = "3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 -1\n";

INSTANTIATE_TEST_SUITE_P(
    Table, PolyanyaErrorTest,
    ::testing::Values(
        BadInput{"Empty", "", "t.mesh:1: unexpected end of file; expected the 'mesh' header"},
        BadInput{"WrongMagic", "mesx\n2\n", "t.mesh:1:1: expected the 'mesh' header, found 'mesx'"},
        BadInput{"Version1", "mesh\n1\n0 0\n", "t.mesh:2:1: format version 1 is not supported"},
        BadInput{"CountNotInteger", "mesh\n2\n4 x\n",
                 "t.mesh:3:3: the polygon count is not an integer: 'x'"},
        BadInput{"NegativeCount", "mesh\n2\n-4 2\n",
                 "t.mesh:3:1: the vertex count = -4 is out of range"},
        BadInput{"HugeCountNothingBehind", "mesh\n2\n2000000000 2000000000\n",
                 "t.mesh:3: unexpected end of file; expected vertex 0: x"},
        BadInput{"CountBeyondInt32", "mesh\n2\n4 99999999999\n", "t.mesh:3:3: the polygon count"},
        BadInput{"VertexNaN", kSquareHead + "nan 0.0 2 0 -1\n",
                 "t.mesh:4:1: vertex 0: x 'nan' is NaN"},
        BadInput{"VertexBadNumber", kSquareHead + "0.0 0.5.5 2 0 -1\n",
                 "t.mesh:4:5: vertex 0: y is not a number: '0.5.5'"},
        BadInput{"VertexIncidentOutOfRange", kSquareHead + "0.0 0.0 2 0 7\n",
                 "t.mesh:4:13: vertex 0: incident polygon index = 7 is out of range [-1, 1]"},
        BadInput{"PolygonVertexOutOfRange",
                 kSquareHead + kSquareVertices + "3 0 1 9 -1 -1 1\n3 1 2 3 0 -1 -1\n",
                 "t.mesh:8:7: polygon 0: vertex index = 9 is out of range [0, 3]"},
        BadInput{"PolygonNeighbourOutOfRange",
                 kSquareHead + kSquareVertices + "3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 5\n",
                 "t.mesh:9:14: polygon 1: neighbour index = 5 is out of range [-1, 1]"},
        BadInput{"PolygonTwoCorners", kSquareHead + kSquareVertices + "2 0 1 -1 -1\n",
                 "t.mesh:8:1: polygon 0: corner count = 2 is out of range [3,"},
        BadInput{"SelfNeighbour",
                 kSquareHead + kSquareVertices + "3 0 1 3 -1 0 1\n3 1 2 3 0 -1 -1\n",
                 "t.mesh:8:12: polygon 0 is its own neighbour"},
        BadInput{"TruncatedPolygon", kSquareHead + kSquareVertices + "3 0 1 3 -1 -1 1\n3 1 2 3 0",
                 "t.mesh:9: unexpected end of file; expected polygon 1: neighbour index"},
        BadInput{"MissingPolygons", kSquareHead + kSquareVertices,
                 "unexpected end of file; expected polygon 0: corner count"},
        BadInput{"TrailingData", kSquareHead + kSquareVertices + kSquarePolygons + "7\n",
                 "t.mesh:10:1: unexpected '7' after the last declared polygon"},
        BadInput{"OneSidedNeighbour",
                 kSquareHead + kSquareVertices + "3 0 1 3 -1 -1 1\n3 1 2 3 -1 -1 -1\n",
                 "t.mesh: polygon 0 names polygon 1 across its edge 1-3, but polygon 1 does not "
                 "name polygon 0 across edge 3-1"}),
    CaseName);

TEST(PolyanyaErrorTest, FormatExampleIsValid) {
  const absl::StatusOr<SourceMesh> mesh =
      ImportPolyanyaMesh(kSquareHead + kSquareVertices + kSquarePolygons, "t.mesh");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  // Polygon 0 = corners 0, 1, 3 with p = [-1, -1, 1]: p[2] lies across 1 -> 3, i.e. edge 1.
  EXPECT_EQ(mesh->declared_neighbors, (std::vector<int32_t>{-1, 1, -1, /*polygon 1:*/ -1, -1, 0}));
}

}  // namespace
}  // namespace waymesh
