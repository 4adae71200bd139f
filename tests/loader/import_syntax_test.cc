// What each importer accepts beyond the basics: every OBJ corner form, relative indices,
// n-gons, comments and CRLF; Polyanya's whitespace insensitivity; JSON key order.

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "waymesh/import/importers.h"

namespace waymesh {
namespace {

std::vector<uint32_t> Corners(const SourceMesh& mesh, uint32_t p) {
  return {mesh.poly_verts.begin() + mesh.poly_start[p],
          mesh.poly_verts.begin() + mesh.poly_start[p + 1]};
}

TEST(ObjSyntaxTest, AcceptsEveryCornerFormAndSkipsNonGeometry) {
  const std::string text =
      "# comment line\n"
      "mtllib level.mtl\n"
      "o Level\n"
      "g floor walls\n"
      "s 1\n"
      "usemtl Stone\n"
      "v 0 0 0\n"
      "v 2 0 0 1.0\n"          // optional w
      "v 2 0 2 0.5 0.5 0.5\n"  // vertex colour extension
      "v +0 0 2e0   # trailing comment\n"
      "vt 0 0\n"
      "vn 0 1 0\n"
      "f 1 2 3\n"
      "f 1/1 3/1 4/1\n"
      "f 1/1/1 2/1/1 3/1/1 4/1/1\n"
      "f 1//1 3//1 4//1\n"
      "f -4 -3 -2\n"  // relative: vertices 1, 2, 3
      "\tf\t2 3 4  \n"
      "l 1 2\n";
  const absl::StatusOr<SourceMesh> mesh = ImportObj(text, "forms.obj");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  ASSERT_EQ(mesh->vertices.size(), 4u);
  EXPECT_EQ(mesh->vertices[3], (Vec3{0, 0, 2}));
  ASSERT_EQ(mesh->polygon_count(), 6u);
  EXPECT_EQ(Corners(*mesh, 0), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(Corners(*mesh, 1), (std::vector<uint32_t>{0, 2, 3}));
  EXPECT_EQ(Corners(*mesh, 2), (std::vector<uint32_t>{0, 1, 2, 3}));  // quad kept whole
  EXPECT_EQ(Corners(*mesh, 3), (std::vector<uint32_t>{0, 2, 3}));
  EXPECT_EQ(Corners(*mesh, 4), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(Corners(*mesh, 5), (std::vector<uint32_t>{1, 2, 3}));
  EXPECT_TRUE(mesh->declared_neighbors.empty());
}

TEST(ObjSyntaxTest, RelativeIndicesCountFromTheVerticesSoFar) {
  const absl::StatusOr<SourceMesh> mesh =
      ImportObj("v 0 0 0\nv 1 0 0\nv 0 0 1\nf -3 -2 -1\nv 5 0 5\nf -4 -1 -2\n", "rel.obj");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(Corners(*mesh, 0), (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ(Corners(*mesh, 1), (std::vector<uint32_t>{0, 3, 2}));
}

TEST(ObjSyntaxTest, CrLfAndMissingFinalNewline) {
  const absl::StatusOr<SourceMesh> mesh =
      ImportObj("v 0 0 0\r\nv 1 0 0\r\nv 0 0 1\r\nf 1 2 3", "crlf.obj");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->polygon_count(), 1u);
}

TEST(ObjSyntaxTest, MirrorXNegatesXInPlace) {
  const absl::StatusOr<SourceMesh> mesh = ImportObj("v 1.5 2 3\nv -4 0 0\nv 0 0 1\nf 1 2 3\n",
                                                    "m.obj", ImportOptions{.mirror_x = true});
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->vertices[0], (Vec3{-1.5f, 2, 3}));
  EXPECT_EQ(mesh->vertices[1], (Vec3{4, 0, 0}));
  EXPECT_EQ(Corners(*mesh, 0), (std::vector<uint32_t>{0, 1, 2}));  // winding untouched
}

TEST(PolyanyaSyntaxTest, WhitespaceInsensitive) {
  // The format example on one line, with tabs and CRs: the same mesh.
  const std::string lines =
      "mesh\n2\n4 2\n0.0 0.0 2 0 -1\n1.5 0.0 3 0 1 -1\n1.5 1.5 2 1 -1\n0.0 1.5 3 -1 1 0\n"
      "3 0 1 3 -1 -1 1\n3 1 2 3 0 -1 -1\n";
  const std::string flat =
      "mesh 2\t4 2 0.0 0.0 2 0 -1 1.5 0.0 3 0 1 -1\r\n 1.5 1.5 2 1 -1 0.0 1.5 3 -1 1 0 "
      "3 0 1 3 -1 -1 1 3 1 2 3 0 -1 -1";
  const absl::StatusOr<SourceMesh> a = ImportPolyanyaMesh(lines, "lines.mesh");
  const absl::StatusOr<SourceMesh> b = ImportPolyanyaMesh(flat, "flat.mesh");
  ASSERT_TRUE(a.ok()) << a.status();
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(a->vertices, b->vertices);
  EXPECT_EQ(a->poly_verts, b->poly_verts);
  EXPECT_EQ(a->declared_neighbors, b->declared_neighbors);
  EXPECT_EQ(a->vertices[2], (Vec3{1.5f, 0, 1.5f}));
}

TEST(PolyanyaSyntaxTest, QuadNextToTriangle) {
  // Quad 0-1-2-3 and triangle 1-4-2 share edge 1-2. Version 2: p[i] lies across v[i-1] -> v[i].
  const absl::StatusOr<SourceMesh> mesh = ImportPolyanyaMesh(
      "mesh\n2\n5 2\n0 0 2 0 -1\n1 0 3 1 0 -1\n1 1 3 0 1 -1\n0 1 2 -1 0\n2 0.5 2 -1 1\n"
      "4 0 1 2 3 -1 -1 1 -1\n3 1 4 2 0 -1 -1\n",
      "qt.mesh");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  // Quad edges 0->1, 1->2, 2->3, 3->0: only 1->2 has a neighbour.
  EXPECT_EQ(mesh->declared_neighbors,
            (std::vector<int32_t>{-1, 1, -1, -1, /*triangle:*/ -1, -1, 0}));
}

TEST(UnityExportSyntaxTest, KeyOrderDoesNotMatter) {
  const absl::StatusOr<SourceMesh> mesh = ImportUnityExport(
      R"({"triangle_areas": [2], "indices": [2, 1, 0], "off_mesh_links": [],
          "vertices": [0, 0, 0, 1, 0, 0, 0, 0, 1], "unknown_future_key": {"a": [1, 2]},
          "version": 1, "format": "waymesh-navmesh-export"})",
      "order.json");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->poly_verts, (std::vector<uint32_t>{2, 1, 0}));
  EXPECT_EQ(mesh->poly_area, (std::vector<uint8_t>{2}));  // Jump, a default area
}

TEST(UnityExportSyntaxTest, EmptyGeometryIsAValidExport) {
  const absl::StatusOr<SourceMesh> mesh = ImportUnityExport(
      R"({"format": "waymesh-navmesh-export", "version": 1, "vertices": [], "indices": []})",
      "empty.json");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->polygon_count(), 0u);
}

TEST(UnityExportSyntaxTest, LinkDefaults) {
  const absl::StatusOr<SourceMesh> mesh = ImportUnityExport(
      R"({"format": "waymesh-navmesh-export", "version": 1, "vertices": [], "indices": [],
          "off_mesh_links": [{"start": [1, 2, 3], "end": [4, 5, 6]},
                             {"start": [0, 0, 0], "end": [0, 1, 0], "radius": 0.25,
                              "bidirectional": false, "area": 1, "cost": 7.5}]})",
      "links.json");
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  ASSERT_EQ(mesh->links.size(), 2u);
  const SourceOffMeshLink defaults;
  EXPECT_EQ(mesh->links[0].start, (Vec3{1, 2, 3}));
  EXPECT_EQ(mesh->links[0].end, (Vec3{4, 5, 6}));
  EXPECT_EQ(mesh->links[0].radius, defaults.radius);
  EXPECT_EQ(mesh->links[0].bidirectional, defaults.bidirectional);
  EXPECT_EQ(mesh->links[0].area, defaults.area);
  EXPECT_EQ(mesh->links[0].cost, defaults.cost);
  EXPECT_EQ(mesh->links[1].radius, 0.25f);
  EXPECT_FALSE(mesh->links[1].bidirectional);
  EXPECT_EQ(mesh->links[1].area, 1);
  EXPECT_EQ(mesh->links[1].cost, 7.5f);
}

}  // namespace
}  // namespace waymesh
