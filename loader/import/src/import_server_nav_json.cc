// The JSON navmesh dump of existing Java/C# game servers: `pathVertices` [{x,y,z}] with
// `pathTriangles` (flat, 0-based) is the walkable mesh. `blockVertices`/`blockTriangles`
// (non-walkable) and `safeVertices`/`safeTriangles` (a marked region) are not walkable surface:
// they are validated like the rest but not imported. A member may appear twice if both copies
// are equal, as in real dumps.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "waymesh/import/default_areas.h"
#include "waymesh/import/importers.h"
#include "waymesh/io/coordinate_check.h"
#include "waymesh/io/json_node.h"
#include "waymesh/io/json_sax_reader.h"

namespace waymesh {
namespace {

using importer::JsonNode;

// One vertex object {"x": .., "y": .., "z": ..}; other members are ignored.
absl::StatusOr<Vec3> ReadVertex(const JsonNode& node) {
  if (absl::Status s = node.ExpectObject(); !s.ok()) return s;
  float xyz[3];
  const char* keys[3] = {"x", "y", "z"};
  for (int i = 0; i < 3; ++i) {
    absl::StatusOr<JsonNode> c = node.Get(keys[i]);
    if (!c.ok()) return c.status();
    if (!c->value().is_number()) return c->Error("must be a number");
    if (auto problem = importer::CoordinateProblem(c->value().get<double>())) {
      return c->Error(*problem);
    }
    xyz[i] = c->value().get<float>();
  }
  return Vec3{xyz[0], xyz[1], xyz[2]};
}

absl::StatusOr<std::vector<Vec3>> ReadVertices(const JsonNode& list) {
  if (absl::Status s = list.ExpectArray(); !s.ok()) return s;
  std::vector<Vec3> vertices;
  vertices.reserve(list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    absl::StatusOr<Vec3> v = ReadVertex(list.At(i));
    if (!v.ok()) return v.status();
    vertices.push_back(*v);
  }
  return vertices;
}

// Flat 0-based triangle list over `vertex_count` vertices named `vertices_key`.
absl::StatusOr<std::vector<uint32_t>> ReadTriangles(const JsonNode& list, size_t vertex_count,
                                                    std::string_view vertices_key) {
  if (absl::Status s = list.ExpectArray(); !s.ok()) return s;
  if (list.size() % 3 != 0) {
    return list.Error(absl::StrCat("has ", list.size(), " entries, which is not a multiple of 3"));
  }
  std::vector<uint32_t> indices;
  indices.reserve(list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    const JsonNode index = list.At(i);
    absl::StatusOr<int64_t> v = index.AsInt(INT64_MIN, INT64_MAX);
    if (!v.ok()) return v.status();
    if (*v < 0 || uint64_t(*v) >= vertex_count) {
      return index.Error(absl::StrFormat("= %d is out of range (%s has %d entries)", *v,
                                         vertices_key, vertex_count));
    }
    indices.push_back(static_cast<uint32_t>(*v));
  }
  return indices;
}

struct Part {
  std::vector<Vec3> vertices;
  std::vector<uint32_t> indices;
};

// The `<prefix>Vertices` / `<prefix>Triangles` pair. Triangles need their vertices.
absl::StatusOr<Part> ReadPart(const JsonNode& root, std::string_view prefix, bool required) {
  const std::string vertices_key = absl::StrFormat("%sVertices", prefix);
  const std::string triangles_key = absl::StrFormat("%sTriangles", prefix);
  std::optional<JsonNode> vertices = root.Find(vertices_key);
  std::optional<JsonNode> triangles = root.Find(triangles_key);
  Part part;
  if (required || triangles) {
    if (!vertices) {
      return root.Get(vertices_key).status();
    }
    if (!triangles) return root.Get(triangles_key).status();
  }
  if (vertices) {
    absl::StatusOr<std::vector<Vec3>> v = ReadVertices(*vertices);
    if (!v.ok()) return v.status();
    part.vertices = *std::move(v);
  }
  if (triangles) {
    absl::StatusOr<std::vector<uint32_t>> t =
        ReadTriangles(*triangles, part.vertices.size(), vertices_key);
    if (!t.ok()) return t.status();
    part.indices = *std::move(t);
  }
  return part;
}

// mapID names the scene; the bounds (startX..endZ) are checked to be numbers when present.
absl::Status ReadHeader(const JsonNode& root, SourceMesh& mesh) {
  if (auto id = root.Find("mapID")) {
    if (id->value().is_string()) {
      mesh.scene_name = absl::StrCat("map ", id->value().get<std::string>());
    } else {
      absl::StatusOr<int64_t> v = id->AsInt(INT64_MIN, INT64_MAX);
      if (!v.ok()) return v.status();
      mesh.scene_name = absl::StrCat("map ", *v);
    }
  }
  for (const char* key : {"startX", "startZ", "endX", "endZ"}) {
    if (auto bound = root.Find(key)) {
      if (absl::StatusOr<double> v = bound->AsNumber(); !v.ok()) return v.status();
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<SourceMesh> ImportServerNavJson(std::string_view text, std::string_view origin) {
  SourceMesh mesh;
  mesh.origin = std::string(origin);
  importer::JsonSaxReader reader(text, mesh.origin);
  // Real dumps (1000.navmesh, 1200.navmesh) write blockVertices/blockTriangles twice, equal.
  reader.AllowIdenticalDuplicateKeys();
  absl::StatusOr<nlohmann::json> tree = reader.Parse();
  if (!tree.ok()) return tree.status();
  const JsonNode root(*tree, "", mesh.origin);
  if (absl::Status s = ReadHeader(root, mesh); !s.ok()) return s;
  absl::StatusOr<Part> walkable = ReadPart(root, "path", /*required=*/true);
  if (!walkable.ok()) return walkable.status();
  for (const char* skipped : {"block", "safe"}) {
    if (absl::StatusOr<Part> p = ReadPart(root, skipped, false); !p.ok()) return p.status();
  }
  const size_t triangles = walkable->indices.size() / 3;
  mesh.vertices = std::move(walkable->vertices);
  mesh.poly_verts = std::move(walkable->indices);
  mesh.poly_start.resize(triangles + 1);
  for (size_t t = 0; t <= triangles; ++t) mesh.poly_start[t] = static_cast<uint32_t>(3 * t);
  mesh.poly_area.assign(triangles, kWalkableArea);
  mesh.areas = importer::DefaultAreas();
  return mesh;
}

}  // namespace waymesh
