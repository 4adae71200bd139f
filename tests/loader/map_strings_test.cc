// The strings a map stores (its name, area names) must be UTF-8, because the server sends them
// in protobuf string fields that clients refuse to parse otherwise: `waymesh build` refuses to
// write such a map and loading refuses to read one.

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "waymesh/format/map_file.h"
#include "waymesh/format/map_tiles.h"
#include "wmesh_test_meshes.h"

namespace waymesh {
namespace {

using ::testing::HasSubstr;

absl::StatusOr<std::string> CompileNamed(const std::string& name, const std::string& area = "") {
  RepairedMesh mesh = testing::HandMadeMesh();
  mesh.info.name = name;
  if (!area.empty()) mesh.info.areas[3].name = area;
  return CompileMap(mesh);
}

TEST(MapStringsTest, UnicodeNamesCompileAndLoad) {
  absl::StatusOr<std::string> bytes = CompileNamed("Zürich ✓ 東京 𝄞", "Straße");
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  auto map = LoadMap(std::make_shared<const std::string>(*bytes));
  ASSERT_TRUE(map.ok()) << map.status();
  EXPECT_EQ((*map)->info().name, "Zürich ✓ 東京 𝄞");
  EXPECT_EQ((*map)->info().areas[3].name, "Straße");
}

TEST(MapStringsTest, BuildRefusesNamesThatAreNotUtf8) {
  for (const std::string& bad :
       {std::string("caf\xe9"), std::string("\xc0\xaf"), std::string("\xed\xa0\x80"),
        std::string("abc\xe2\x82"), std::string("\xf4\x90\x80\x80")}) {
    absl::StatusOr<std::string> bytes = CompileNamed(bad);
    ASSERT_FALSE(bytes.ok()) << "accepted a name of bytes " << ::testing::PrintToString(bad);
    EXPECT_THAT(std::string(bytes.status().message()), HasSubstr("map name is not valid UTF-8"));
  }
  absl::StatusOr<std::string> area = CompileNamed("town",
                                                  "ro\xff"
                                                  "ad");
  ASSERT_FALSE(area.ok());
  EXPECT_THAT(std::string(area.status().message()), HasSubstr("area 3 name is not valid UTF-8"));
}

TEST(MapStringsTest, LoadingRefusesANameThatIsNotUtf8EvenWithGoodChecksums) {
  absl::StatusOr<std::string> bytes = CompileNamed("QQQQ");
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  const size_t at = bytes->find("QQQQ");
  ASSERT_NE(at, std::string::npos);
  bytes->replace(at, 4, "\xff\xfe\xfd\xfc");
  ResealMapChecksums(std::as_writable_bytes(std::span(*bytes)));
  auto map = LoadMap(std::make_shared<const std::string>(*bytes));
  ASSERT_FALSE(map.ok());
  EXPECT_THAT(std::string(map.status().message()), HasSubstr("map name is not valid UTF-8"));
  EXPECT_THAT(std::string(map.status().message()), HasSubstr("byte 0xff"));
}

}  // namespace
}  // namespace waymesh
