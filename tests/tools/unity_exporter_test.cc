// A cheap guard against drift between the Unity exporter (C#, exporters/unity, which cannot run
// here) and the importer's contract (docs/export-format.md): the C# writes every key the
// document defines, its format name and versions match the fixture, the assembly is
// Editor-only, and the fixture has the exact layout the writer produces
// (exporters/unity/Tests~/check_fixture.sh compares it byte for byte where Mono is installed).

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/test_data.h"

namespace waymesh::testing {
namespace {

using ::testing::HasSubstr;

std::string RepoPath(const std::string& relative) { return Fixture("../../" + relative); }

// All C# sources of the exporter, concatenated.
std::string ExporterSources() {
  std::string all;
  int files = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(RepoPath("exporters/unity/Editor"))) {
    if (entry.path().extension() == ".cs") {
      all += ReadFileOrDie(entry.path().string());
      ++files;
    }
  }
  EXPECT_GE(files, 5);
  return all;
}

// Keys the export format defines: the first column of every key table in the doc
// (| `key` | type | ...), plus the members of "exporter" and "scene" it names in prose.
std::set<std::string> DocumentedKeys() {
  std::istringstream doc(ReadFileOrDie(RepoPath("docs/export-format.md")));
  const std::regex row(R"(^\| `([a-z_]+)` \|)");
  std::set<std::string> keys = {"name", "version", "hash"};
  std::string line;
  std::smatch m;
  while (std::getline(doc, line)) {
    if (std::regex_search(line, m, row)) keys.insert(m[1]);
  }
  return keys;
}

TEST(UnityExporterTest, CSharpWritesEveryDocumentedKey) {
  const std::set<std::string> keys = DocumentedKeys();
  // The doc's tables: 11 top-level keys, 7 agent keys, 3 area keys, 6 link keys.
  ASSERT_GE(keys.size(), 20u);
  for (const char* k : {"vertices", "indices", "triangle_areas", "off_mesh_links", "agents",
                        "max_slope", "voxel_size", "bidirectional", "unity_version"}) {
    EXPECT_TRUE(keys.count(k)) << "docs/export-format.md no longer documents " << k;
  }
  const std::string sources = ExporterSources();
  for (const std::string& key : keys) {
    // Keys appear in the writer as escaped C# string literals: \"key\".
    EXPECT_THAT(sources, HasSubstr("\\\"" + key + "\\\"")) << "the exporter never writes " << key;
  }
}

TEST(UnityExporterTest, FixtureIsCompleteAndNamesThisExporter) {
  const nlohmann::json fixture =
      nlohmann::json::parse(ReadFileOrDie(Fixture("unity_export_fixture.json")));
  const std::string sources = ExporterSources();
  const std::string format = fixture["format"];
  EXPECT_THAT(sources, HasSubstr("FormatName = \"" + format + "\""));
  EXPECT_THAT(sources, HasSubstr("FormatVersion = " + fixture["version"].dump() + ";"));
  const std::string name = fixture["exporter"]["name"];
  const std::string version = fixture["exporter"]["version"];
  EXPECT_THAT(sources, HasSubstr("ExporterName = \"" + name + "\""));
  EXPECT_THAT(sources, HasSubstr("ExporterVersion = \"" + version + "\""));
  // The fixture uses every documented key, at the top level or in an array's objects.
  std::set<std::string> present;
  for (const auto& [key, value] : fixture.items()) {
    present.insert(key);
    if (value.is_object()) {
      for (const auto& [inner, unused] : value.items()) present.insert(inner);
    }
    if (value.is_array()) {
      for (const auto& element : value) {
        if (!element.is_object()) continue;
        for (const auto& [inner, unused] : element.items()) present.insert(inner);
      }
    }
  }
  for (const std::string& key : DocumentedKeys()) EXPECT_TRUE(present.count(key)) << key;
}

// The writer's layout: a vertex or triangle per line, numbers as C# float.ToString("R") writes
// them (no "2.0", exponent as "E-06"), '\n' line ends.
TEST(UnityExporterTest, FixtureHasTheWritersLayout) {
  const std::string text = ReadFileOrDie(Fixture("unity_export_fixture.json"));
  EXPECT_EQ(text.find('\r'), std::string::npos);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  const std::regex number(R"(-?\d+(\.\d+)?(E[+-]\d\d)?)");
  const std::regex triple(R"(^    ([^,]+), ([^,]+), ([^,]+),?$)");
  std::istringstream lines(text);
  std::string line, section;
  int triples = 0;
  while (std::getline(lines, line)) {
    if (line.starts_with("  \"")) section = line.substr(3, line.find('"', 3) - 3);
    if ((section == "vertices" || section == "indices") && line.starts_with("    ")) {
      std::smatch m;
      ASSERT_TRUE(std::regex_match(line, m, triple)) << line;
      for (int i = 1; i <= 3; ++i) {
        EXPECT_TRUE(std::regex_match(m[i].str(), number)) << line;
        EXPECT_FALSE(m[i].str().ends_with(".0")) << line;
      }
      ++triples;
    }
  }
  EXPECT_EQ(triples, 96 + 32);                     // the fixture's vertices and triangles
  EXPECT_THAT(text, HasSubstr("\"height\": 2,"));  // 2.0f written the "R" way
  EXPECT_THAT(text, HasSubstr("\"hash\": \"sha256:"));
}

TEST(UnityExporterTest, EditorOnlyAssemblyAndDocumentedEntryPoints) {
  const nlohmann::json asmdef = nlohmann::json::parse(
      ReadFileOrDie(RepoPath("exporters/unity/Editor/Waymesh.Editor.asmdef")));
  EXPECT_EQ(asmdef["name"], "Waymesh.Editor");
  EXPECT_EQ(asmdef["includePlatforms"], nlohmann::json::array({"Editor"}));
  const std::string sources = ExporterSources();
  const std::string guide = ReadFileOrDie(RepoPath("docs/unity.md"));
  for (const char* s : {"Tools/Waymesh/Export NavMesh", "ExportFromCommandLine", "-waymeshOut",
                        "Tools/Waymesh/Export On Build"}) {
    EXPECT_THAT(sources, HasSubstr(s));
    EXPECT_THAT(guide, HasSubstr(s));
  }
  EXPECT_THAT(sources, HasSubstr("namespace Waymesh.Editor"));
  EXPECT_THAT(sources, HasSubstr("public static class NavMeshExporter"));
  EXPECT_THAT(guide, HasSubstr("Waymesh.Editor.NavMeshExporter.ExportFromCommandLine"));
  // Invariant culture and round-trip floats, as the format asks.
  EXPECT_THAT(sources, HasSubstr("ToString(\"R\", CultureInfo.InvariantCulture)"));
}

}  // namespace
}  // namespace waymesh::testing
