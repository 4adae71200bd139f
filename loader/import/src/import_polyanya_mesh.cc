// Polyanya `.mesh` version 2 (../shared/data/polyanya/meshes/format.txt): whitespace-insensitive
// numbers; vertices list their incident polygons, polygons list their corners and, for corner i,
// the polygon across the edge from corner i-1 to corner i (-1 = obstacle). 2D (x, y) becomes
// (x, 0, y) on the horizontal plane.

#include <algorithm>
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

constexpr int64_t kVersion = 2;
// Counts and indices must fit SourceMesh::declared_neighbors (int32).
constexpr int64_t kMaxCount = INT32_MAX;

// Names the number being read, formatted only when an error is reported.
struct Field {
  const char* section;  // "vertex", "polygon" or nullptr for the header
  int64_t index;
  const char* name;
};

std::string Describe(const Field& f) {
  if (f.section == nullptr) return f.name;
  return absl::StrCat(f.section, " ", f.index, ": ", f.name);
}

class MeshReader {
 public:
  MeshReader(std::string_view text, std::string_view origin) : cursor_(text, origin) {}

  absl::Status Header(int64_t* vertices, int64_t* polygons);
  absl::Status Vertex(int64_t v, int64_t polygon_count, SourceMesh& mesh);
  absl::Status Polygon(int64_t p, int64_t vertex_count, int64_t polygon_count, SourceMesh& mesh);
  absl::Status End();

 private:
  // Next token, or an end-of-file error naming what was expected.
  absl::StatusOr<std::string_view> Token(const Field& f);
  // Next token read by `parse`; when it does not parse, an error saying it is not `kind` ("an
  // integer"). `*token`, when given, is the token read, for later messages.
  template <typename T>
  absl::StatusOr<T> Parsed(const Field& f, std::optional<T> (*parse)(std::string_view),
                           const char* kind, std::string_view* token = nullptr);
  absl::StatusOr<int64_t> Int(const Field& f, int64_t min, int64_t max);
  absl::StatusOr<float> Coordinate(const Field& f);

  TextCursor cursor_;
};

absl::StatusOr<std::string_view> MeshReader::Token(const Field& f) {
  const std::string_view token = cursor_.NextToken();
  if (token.empty()) {
    return cursor_.ErrorAtLine(absl::StrCat("unexpected end of file; expected ", Describe(f)));
  }
  return token;
}

template <typename T>
absl::StatusOr<T> MeshReader::Parsed(const Field& f, std::optional<T> (*parse)(std::string_view),
                                     const char* kind, std::string_view* token) {
  absl::StatusOr<std::string_view> next = Token(f);
  if (!next.ok()) return next.status();
  if (token != nullptr) *token = *next;
  const std::optional<T> v = parse(*next);
  if (!v) {
    return cursor_.ErrorAtToken(
        absl::StrCat(Describe(f), " is not ", kind, ": ", QuoteToken(*next)));
  }
  return *v;
}

absl::StatusOr<int64_t> MeshReader::Int(const Field& f, int64_t min, int64_t max) {
  const absl::StatusOr<int64_t> v = Parsed(f, importer::ParseInt64, "an integer");
  if (!v.ok()) return v.status();
  if (*v < min || *v > max) {
    return cursor_.ErrorAtToken(
        absl::StrCat(Describe(f), " = ", *v, " is out of range [", min, ", ", max, "]"));
  }
  return *v;
}

absl::StatusOr<float> MeshReader::Coordinate(const Field& f) {
  std::string_view token;
  const absl::StatusOr<double> v = Parsed(f, importer::ParseDouble, "a number", &token);
  if (!v.ok()) return v.status();
  if (auto problem = importer::CoordinateProblem(*v)) {
    return cursor_.ErrorAtToken(absl::StrCat(Describe(f), " ", QuoteToken(token), " ", *problem));
  }
  return static_cast<float>(*v);
}

absl::Status MeshReader::Header(int64_t* vertices, int64_t* polygons) {
  absl::StatusOr<std::string_view> magic = Token({nullptr, 0, "the 'mesh' header"});
  if (!magic.ok()) return magic.status();
  if (*magic != "mesh") {
    return cursor_.ErrorAtToken(
        absl::StrCat("expected the 'mesh' header, found ", QuoteToken(*magic)));
  }
  absl::StatusOr<int64_t> version = Int({nullptr, 0, "the format version"}, 0, kMaxCount);
  if (!version.ok()) return version.status();
  if (*version != kVersion) {
    return cursor_.ErrorAtToken(absl::StrCat("format version ", *version,
                                             " is not supported (only version ", kVersion, ")"));
  }
  absl::StatusOr<int64_t> v = Int({nullptr, 0, "the vertex count"}, 0, kMaxCount);
  if (!v.ok()) return v.status();
  absl::StatusOr<int64_t> p = Int({nullptr, 0, "the polygon count"}, 0, kMaxCount);
  if (!p.ok()) return p.status();
  *vertices = *v;
  *polygons = *p;
  return absl::OkStatus();
}

// `x y n p1 .. pn`: the incident polygons are validated, not kept (adjacency is per polygon).
absl::Status MeshReader::Vertex(int64_t v, int64_t polygon_count, SourceMesh& mesh) {
  absl::StatusOr<float> x = Coordinate({"vertex", v, "x"});
  if (!x.ok()) return x.status();
  absl::StatusOr<float> y = Coordinate({"vertex", v, "y"});
  if (!y.ok()) return y.status();
  absl::StatusOr<int64_t> n = Int({"vertex", v, "neighbour count"}, 0, kMaxCount);
  if (!n.ok()) return n.status();
  for (int64_t i = 0; i < *n; ++i) {
    absl::StatusOr<int64_t> polygon =
        Int({"vertex", v, "incident polygon index"}, -1, polygon_count - 1);
    if (!polygon.ok()) return polygon.status();
  }
  mesh.vertices.push_back(Vec3{*x, 0.0f, *y});
  return absl::OkStatus();
}

// `n v1 .. vn p1 .. pn`, where p[i] lies across the edge v[i-1] -> v[i]. SourceMesh wants the
// neighbour across corner i -> i+1, which is p[i+1].
absl::Status MeshReader::Polygon(int64_t p, int64_t vertex_count, int64_t polygon_count,
                                 SourceMesh& mesh) {
  absl::StatusOr<int64_t> n = Int({"polygon", p, "corner count"}, 3, kMaxCount);
  if (!n.ok()) return n.status();
  const size_t first = mesh.poly_verts.size();
  for (int64_t i = 0; i < *n; ++i) {
    absl::StatusOr<int64_t> v = Int({"polygon", p, "vertex index"}, 0, vertex_count - 1);
    if (!v.ok()) return v.status();
    mesh.poly_verts.push_back(static_cast<uint32_t>(*v));
  }
  mesh.declared_neighbors.resize(mesh.poly_verts.size());
  for (int64_t i = 0; i < *n; ++i) {
    absl::StatusOr<int64_t> q = Int({"polygon", p, "neighbour index"}, -1, polygon_count - 1);
    if (!q.ok()) return q.status();
    if (*q == p) return cursor_.ErrorAtToken(absl::StrCat("polygon ", p, " is its own neighbour"));
    mesh.declared_neighbors[first + (i + *n - 1) % *n] = static_cast<int32_t>(*q);
  }
  if (mesh.poly_verts.size() > UINT32_MAX) return cursor_.ErrorAtLine("too many polygon corners");
  mesh.poly_start.push_back(static_cast<uint32_t>(mesh.poly_verts.size()));
  mesh.poly_area.push_back(kWalkableArea);
  return absl::OkStatus();
}

absl::Status MeshReader::End() {
  if (cursor_.AtEnd()) return absl::OkStatus();
  const std::string_view extra = cursor_.NextToken();
  return cursor_.ErrorAtToken(
      absl::StrCat("unexpected ", QuoteToken(extra), " after the last declared polygon"));
}

// Declared adjacency must be mutual: if p names q across edge a -> b, then q names p across its
// edge b -> a. Otherwise the file contradicts itself.
absl::Status CheckSymmetry(const SourceMesh& mesh) {
  for (uint32_t p = 0; p < mesh.polygon_count(); ++p) {
    const uint32_t begin = mesh.poly_start[p], n = mesh.poly_start[p + 1] - begin;
    for (uint32_t i = 0; i < n; ++i) {
      const int32_t q = mesh.declared_neighbors[begin + i];
      if (q < 0) continue;
      const uint32_t a = mesh.poly_verts[begin + i], b = mesh.poly_verts[begin + (i + 1) % n];
      const uint32_t qb = mesh.poly_start[q], qn = mesh.poly_start[q + 1] - qb;
      bool mutual = false;
      for (uint32_t j = 0; j < qn && !mutual; ++j) {
        mutual = mesh.poly_verts[qb + j] == b && mesh.poly_verts[qb + (j + 1) % qn] == a &&
                 mesh.declared_neighbors[qb + j] == int32_t(p);
      }
      if (!mutual) {
        return absl::InvalidArgumentError(absl::StrCat(
            mesh.origin, ": polygon ", p, " names polygon ", q, " across its edge ", a, "-", b,
            ", but polygon ", q, " does not name polygon ", p, " across edge ", b, "-", a));
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<SourceMesh> ImportPolyanyaMesh(std::string_view text, std::string_view origin) {
  SourceMesh mesh;
  mesh.origin = std::string(origin);
  MeshReader reader(text, mesh.origin);
  int64_t vertex_count = 0, polygon_count = 0;
  if (absl::Status s = reader.Header(&vertex_count, &polygon_count); !s.ok()) return s;
  // Counts come from the file: reserve no more than its size could possibly hold.
  const size_t plausible = text.size() / 4;
  mesh.vertices.reserve(std::min<size_t>(vertex_count, plausible));
  mesh.poly_start.reserve(std::min<size_t>(polygon_count, plausible) + 1);
  for (int64_t v = 0; v < vertex_count; ++v) {
    if (absl::Status s = reader.Vertex(v, polygon_count, mesh); !s.ok()) return s;
  }
  for (int64_t p = 0; p < polygon_count; ++p) {
    if (absl::Status s = reader.Polygon(p, vertex_count, polygon_count, mesh); !s.ok()) return s;
  }
  if (absl::Status s = reader.End(); !s.ok()) return s;
  if (absl::Status s = CheckSymmetry(mesh); !s.ok()) return s;
  mesh.areas = importer::DefaultAreas();
  return mesh;
}

}  // namespace waymesh
