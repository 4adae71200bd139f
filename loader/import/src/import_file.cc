// Reads a file and hands it to the importer its extension and content call for.

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "waymesh/import/importers.h"

namespace waymesh {
namespace {

enum class Format { kUnityExport, kServerNavJson, kObj, kPolyanyaMesh, kUnknown };

absl::StatusOr<std::string> ReadWholeFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": is a directory, not a file"));
  }
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) {
    const int err = errno;
    return absl::ErrnoToStatus(err, absl::StrCat("cannot open ", path));
  }
  std::string text;
  char buffer[1 << 16];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) text.append(buffer, n);
  if (std::ferror(file.get())) {
    const int err = errno;
    return absl::ErrnoToStatus(err, absl::StrCat("cannot read ", path));
  }
  return text;
}

// Which JSON dialect: our export says so in "format"; the server dump has "pathVertices".
Format SniffJson(std::string_view text, std::string_view extension) {
  if (text.find("\"waymesh-navmesh-export\"") != std::string_view::npos) {
    return Format::kUnityExport;
  }
  if (text.find("\"pathVertices\"") != std::string_view::npos) return Format::kServerNavJson;
  // A "format" key that is not ours still gets the Unity importer's precise message.
  if (text.find("\"format\"") != std::string_view::npos) return Format::kUnityExport;
  return extension == ".navmesh" ? Format::kServerNavJson : Format::kUnknown;
}

Format Detect(const std::string& path, std::string_view text) {
  const std::string extension =
      absl::AsciiStrToLower(std::filesystem::path(path).extension().string());
  if (extension == ".obj") return Format::kObj;
  if (extension == ".mesh") return Format::kPolyanyaMesh;
  if (extension == ".json" || extension == ".navmesh") return SniffJson(text, extension);
  // Unknown extension: only unmistakable content is accepted.
  const size_t start = text.find_first_not_of(" \t\r\n");
  const std::string_view body = text.substr(std::min(start, text.size()));
  if (body.starts_with("{")) return SniffJson(text, extension);
  if (body.starts_with("mesh") &&
      (body.size() == 4 || absl::ascii_isspace(static_cast<unsigned char>(body[4])))) {
    return Format::kPolyanyaMesh;
  }
  return Format::kUnknown;
}

// Undoes an exporter that negated X; winding is left to the repair pipeline.
void MirrorX(SourceMesh& mesh) {
  for (Vec3& v : mesh.vertices) v.x = -v.x;
  for (SourceOffMeshLink& link : mesh.links) {
    link.start.x = -link.start.x;
    link.end.x = -link.end.x;
  }
}

}  // namespace

absl::StatusOr<SourceMesh> ImportFile(const std::string& path, const ImportOptions& options) {
  absl::StatusOr<std::string> text = ReadWholeFile(path);
  if (!text.ok()) return text.status();
  absl::StatusOr<SourceMesh> mesh;
  switch (Detect(path, *text)) {
    case Format::kObj:
      return ImportObj(*text, path, options);
    case Format::kPolyanyaMesh:
      mesh = ImportPolyanyaMesh(*text, path);
      break;
    case Format::kUnityExport:
      mesh = ImportUnityExport(*text, path);
      break;
    case Format::kServerNavJson:
      mesh = ImportServerNavJson(*text, path);
      break;
    case Format::kUnknown:
      return absl::InvalidArgumentError(absl::StrCat(
          path,
          ": unrecognised navmesh file: expected a Unity export (.json with \"format\": "
          "\"waymesh-navmesh-export\"), a server navmesh (.json/.navmesh with "
          "\"pathVertices\"), a Wavefront .obj or a Polyanya .mesh"));
  }
  if (mesh.ok() && options.mirror_x) MirrorX(*mesh);
  return mesh;
}

}  // namespace waymesh
