// Wavefront OBJ: `v` positions and `f` faces (triangles or n-gons; `a`, `a/t`, `a/t/n`, `a//n`;
// 1-based or negative = relative indices). Normals, texture coordinates, groups, smoothing and
// materials carry nothing a navmesh needs and are skipped.

#include <algorithm>
#include <array>
#include <cstdint>
#include <string_view>

#include "absl/strings/str_cat.h"
#include "waymesh/import/default_areas.h"
#include "waymesh/import/importers.h"
#include "waymesh/io/coordinate_check.h"
#include "waymesh/io/parse_number.h"
#include "waymesh/io/text_cursor.h"

namespace waymesh {
namespace {

using importer::QuoteToken;
using importer::TextCursor;

// Statements that are valid OBJ but do not describe the walkable surface.
constexpr std::array<std::string_view, 33> kIgnoredStatements = {
    "vn",     "vt",     "vp",     "g",          "o",        "s",        "usemtl",
    "mtllib", "l",      "p",      "cstype",     "deg",      "bmat",     "step",
    "curv",   "curv2",  "surf",   "parm",       "trim",     "hole",     "scrv",
    "sp",     "end",    "con",    "mg",         "bevel",    "c_interp", "d_interp",
    "lod",    "maplib", "usemap", "shadow_obj", "trace_obj"};

bool Ignored(std::string_view keyword) {
  return std::find(kIgnoredStatements.begin(), kIgnoredStatements.end(), keyword) !=
         kIgnoredStatements.end();
}

// `v x y z [w]` (or `v x y z r g b`, a common vertex-colour extension).
absl::Status ReadVertex(TextCursor& cursor, const ImportOptions& options, SourceMesh& mesh) {
  static constexpr const char* kAxis[3] = {"x", "y", "z"};
  double xyz[3];
  int count = 0;
  for (std::string_view token = cursor.NextTokenInLine('#'); !token.empty();
       token = cursor.NextTokenInLine('#'), ++count) {
    const std::optional<double> v = importer::ParseDouble(token);
    if (!v) return cursor.ErrorAtToken(absl::StrCat("bad number ", QuoteToken(token)));
    if (count >= 3) continue;  // w or colour: parsed for syntax, not used
    if (auto problem = importer::CoordinateProblem(*v)) {
      return cursor.ErrorAtToken(
          absl::StrCat(kAxis[count], " coordinate ", QuoteToken(token), " ", *problem));
    }
    xyz[count] = *v;
  }
  if (count != 3 && count != 4 && count != 6) {
    return cursor.ErrorAtLine(
        absl::StrCat("vertex has ", count, " numbers; expected x y z, x y z w or x y z r g b"));
  }
  const float x = static_cast<float>(options.mirror_x ? -xyz[0] : xyz[0]);
  mesh.vertices.push_back(Vec3{x, static_cast<float>(xyz[1]), static_cast<float>(xyz[2])});
  return absl::OkStatus();
}

// What follows the first '/' of a corner: `t`, `t/n` or `/n` (indices checked for syntax only:
// texture coordinates and normals are not used).
bool ValidCornerTail(std::string_view tail) {
  const size_t slash = tail.find('/');
  if (slash == std::string_view::npos) return importer::ParseInt64(tail).has_value();
  const std::string_view t = tail.substr(0, slash);
  return (t.empty() || importer::ParseInt64(t)) && importer::ParseInt64(tail.substr(slash + 1));
}

// One face corner `a`, `a/t`, `a/t/n` or `a//n`: the 0-based vertex index it names.
absl::StatusOr<uint32_t> ReadCorner(const TextCursor& cursor, std::string_view token,
                                    size_t vertex_count) {
  const size_t slash = token.find('/');
  const std::optional<int64_t> index = importer::ParseInt64(token.substr(0, slash));
  const bool valid =
      index && (slash == std::string_view::npos || ValidCornerTail(token.substr(slash + 1)));
  if (!valid) return cursor.ErrorAtToken(absl::StrCat("bad face index ", QuoteToken(token)));
  const int64_t count = static_cast<int64_t>(vertex_count);
  const int64_t resolved = *index > 0 ? *index - 1 : count + *index;
  if (*index == 0 || resolved < 0 || resolved >= count) {
    return cursor.ErrorAtToken(
        absl::StrCat("face index ", *index, " out of range (", vertex_count, " vertices so far)"));
  }
  return static_cast<uint32_t>(resolved);
}

// `f c1 c2 c3 ...`: one polygon of three or more corners.
absl::Status ReadFace(TextCursor& cursor, SourceMesh& mesh) {
  const size_t first = mesh.poly_verts.size();
  for (std::string_view token = cursor.NextTokenInLine('#'); !token.empty();
       token = cursor.NextTokenInLine('#')) {
    absl::StatusOr<uint32_t> v = ReadCorner(cursor, token, mesh.vertices.size());
    if (!v.ok()) return v.status();
    mesh.poly_verts.push_back(*v);
  }
  const size_t corners = mesh.poly_verts.size() - first;
  if (corners < 3) {
    return cursor.ErrorAtLine(absl::StrCat("face has ", corners, " corners, needs at least 3"));
  }
  if (mesh.poly_verts.size() > UINT32_MAX) return cursor.ErrorAtLine("too many face corners");
  mesh.poly_start.push_back(static_cast<uint32_t>(mesh.poly_verts.size()));
  mesh.poly_area.push_back(kWalkableArea);
  return absl::OkStatus();
}

absl::Status ReadStatement(TextCursor& cursor, const ImportOptions& options, SourceMesh& mesh) {
  const std::string_view keyword = cursor.NextTokenInLine('#');
  if (keyword.empty()) return absl::OkStatus();
  if (keyword == "v") {
    if (mesh.vertices.size() >= UINT32_MAX) return cursor.ErrorAtLine("too many vertices");
    return ReadVertex(cursor, options, mesh);
  }
  if (keyword == "f") return ReadFace(cursor, mesh);
  if (Ignored(keyword)) return absl::OkStatus();
  return cursor.ErrorAtToken(absl::StrCat("unknown statement ", QuoteToken(keyword)));
}

}  // namespace

absl::StatusOr<SourceMesh> ImportObj(std::string_view text, std::string_view origin,
                                     const ImportOptions& options) {
  SourceMesh mesh;
  mesh.origin = std::string(origin);
  TextCursor cursor(text, mesh.origin);
  do {
    if (absl::Status s = ReadStatement(cursor, options, mesh); !s.ok()) return s;
  } while (cursor.NextLine());
  mesh.areas = importer::DefaultAreas();
  return mesh;
}

}  // namespace waymesh
