// ImportFile: reading, picking the importer from extension and content, and errors that name
// the file.

#include <filesystem>
#include <fstream>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "waymesh/import/importers.h"

namespace waymesh {
namespace {

using ::testing::HasSubstr;

constexpr char kExport[] =
    R"({"format": "waymesh-navmesh-export", "version": 1, "scene": {"name": "S"},
        "vertices": [1, 0, 0, 2, 0, 0, 1, 0, 1], "indices": [0, 1, 2],
        "off_mesh_links": [{"start": [1, 0, 0], "end": [2, 0, 1]}]})";
constexpr char kServer[] =
    R"({"mapID": 5, "pathVertices": [{"x": 1, "y": 0, "z": 0}, {"x": 2, "y": 0, "z": 0},
        {"x": 1, "y": 0, "z": 1}], "pathTriangles": [0, 1, 2]})";
constexpr char kObj[] = "v 1 0 0\nv 2 0 0\nv 1 0 1\nf 1 2 3\n";
constexpr char kMesh[] = "mesh\n2\n3 1\n1 0 1 0\n2 0 1 0\n1 1 1 0\n3 0 1 2 -1 -1 -1\n";

class ImportFileTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  void SetUp() override {
    dir_ = ::testing::TempDir() + "/import_file_test_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string dir_;
};

TEST_F(ImportFileTest, PicksImporterByExtensionAndContent) {
  const absl::StatusOr<SourceMesh> unity = ImportFile(Write("town.json", kExport));
  ASSERT_TRUE(unity.ok()) << unity.status();
  EXPECT_EQ(unity->scene_name, "S");
  EXPECT_EQ(unity->links.size(), 1u);

  for (const char* name : {"map.json", "map.navmesh", "MAP.NAVMESH"}) {
    const absl::StatusOr<SourceMesh> server = ImportFile(Write(name, kServer));
    ASSERT_TRUE(server.ok()) << name << ": " << server.status();
    EXPECT_EQ(server->scene_name, "map 5") << name;
  }
  const absl::StatusOr<SourceMesh> obj = ImportFile(Write("level.obj", kObj));
  ASSERT_TRUE(obj.ok()) << obj.status();
  EXPECT_EQ(obj->polygon_count(), 1u);
  const absl::StatusOr<SourceMesh> mesh = ImportFile(Write("arena.mesh", kMesh));
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  EXPECT_EQ(mesh->declared_neighbors.size(), 3u);
}

TEST_F(ImportFileTest, UnknownExtensionFallsBackToUnmistakableContent) {
  const absl::StatusOr<SourceMesh> json = ImportFile(Write("export.txt", kExport));
  ASSERT_TRUE(json.ok()) << json.status();
  EXPECT_EQ(json->scene_name, "S");
  const absl::StatusOr<SourceMesh> mesh = ImportFile(Write("noext", kMesh));
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  const absl::StatusOr<SourceMesh> obj = ImportFile(Write("level.dat", kObj));
  ASSERT_FALSE(obj.ok());
  EXPECT_THAT(std::string(obj.status().message()), HasSubstr("unrecognised navmesh file"));
}

TEST_F(ImportFileTest, MirrorXAppliesToEveryFormat) {
  const ImportOptions mirror{.mirror_x = true};
  for (const auto& [name, text] : {std::pair{"a.json", kExport}, std::pair{"b.navmesh", kServer},
                                   std::pair{"c.obj", kObj}, std::pair{"d.mesh", kMesh}}) {
    const absl::StatusOr<SourceMesh> mesh = ImportFile(Write(name, text), mirror);
    ASSERT_TRUE(mesh.ok()) << name << ": " << mesh.status();
    EXPECT_EQ(mesh->vertices[0].x, -1.0f) << name;
    EXPECT_EQ(mesh->vertices[1].x, -2.0f) << name;
  }
  const absl::StatusOr<SourceMesh> unity = ImportFile(Write("e.json", kExport), mirror);
  ASSERT_TRUE(unity.ok());
  EXPECT_EQ(unity->links[0].start.x, -1.0f);
  EXPECT_EQ(unity->links[0].end.x, -2.0f);
}

TEST_F(ImportFileTest, ErrorsNameTheFile) {
  const std::string missing = dir_ + "/missing.json";
  const absl::StatusOr<SourceMesh> none = ImportFile(missing);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(none.status().message()), HasSubstr(missing));

  const absl::StatusOr<SourceMesh> directory = ImportFile(dir_);
  ASSERT_FALSE(directory.ok());
  EXPECT_THAT(std::string(directory.status().message()), HasSubstr("is a directory"));

  const std::string bad = Write("bad.obj", "v 0 0 0\nf 1 2 3\n");
  const absl::StatusOr<SourceMesh> obj = ImportFile(bad);
  ASSERT_FALSE(obj.ok());
  EXPECT_THAT(std::string(obj.status().message()), HasSubstr(bad + ":2:5: face index 2"));

  const absl::StatusOr<SourceMesh> json = ImportFile(Write("other.json", R"({"a": 1})"));
  ASSERT_FALSE(json.ok());
  EXPECT_THAT(std::string(json.status().message()), HasSubstr("unrecognised navmesh file"));

  // A "format" that is not ours gets the Unity importer's precise message.
  const absl::StatusOr<SourceMesh> foreign =
      ImportFile(Write("foreign.json", R"({"format": "gltf", "version": 1})"));
  ASSERT_FALSE(foreign.ok());
  EXPECT_THAT(std::string(foreign.status().message()),
              HasSubstr("format = \"gltf\" is not \"waymesh-navmesh-export\""));
}

}  // namespace
}  // namespace waymesh
