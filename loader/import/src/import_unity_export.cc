// The project's own Unity export (docs/export-format.md). The big arrays (vertices, indices,
// triangle_areas) are streamed straight into the mesh; only the small metadata becomes a tree.

#include <cstdint>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "export_format.h"
#include "waymesh/import/area_declaration.h"
#include "waymesh/import/default_areas.h"
#include "waymesh/import/importers.h"
#include "waymesh/io/coordinate_check.h"
#include "waymesh/io/json_node.h"
#include "waymesh/io/json_sax_reader.h"
#include "waymesh/io/number_text.h"
#include "waymesh/mesh/tolerances.h"

namespace waymesh {
namespace {

using importer::JsonNode;

// Geometry filled by the streamed arrays while parsing.
struct StreamedGeometry {
  std::vector<Vec3> vertices;
  Vec3 pending;  // vertex whose components are still arriving
  std::vector<uint32_t> indices;
  std::vector<uint8_t> triangle_areas;
  size_t coordinates = 0;
};

std::optional<std::string> TakeCoordinate(StreamedGeometry& g, size_t index, double value) {
  if (auto problem = importer::CoordinateProblem(value)) return problem;
  const float f = static_cast<float>(value);
  switch (index % 3) {
    case 0:
      g.pending.x = f;
      break;
    case 1:
      g.pending.y = f;
      break;
    default:
      g.pending.z = f;
      g.vertices.push_back(g.pending);
  }
  g.coordinates = index + 1;
  return std::nullopt;
}

std::optional<std::string> TakeIndex(StreamedGeometry& g, double value, bool integral) {
  if (!integral) return absl::StrCat("= ", NumberText(value), " is not an integer");
  if (value < 0 || value > double(UINT32_MAX)) {
    return absl::StrCat("= ", NumberText(value), " is not a vertex index");
  }
  g.indices.push_back(static_cast<uint32_t>(value));
  return std::nullopt;
}

std::optional<std::string> TakeArea(StreamedGeometry& g, double value, bool integral) {
  if (!integral || value < 0 || value >= kMaxAreas) {
    return absl::StrCat("= ", NumberText(value), " is not an area id (0..", kMaxAreas - 1, ")");
  }
  g.triangle_areas.push_back(static_cast<uint8_t>(value));
  return std::nullopt;
}

void StreamGeometry(importer::JsonSaxReader& reader, StreamedGeometry& g) {
  reader.StreamArray("vertices",
                     [&g](size_t i, double v, bool) { return TakeCoordinate(g, i, v); });
  reader.StreamArray("indices",
                     [&g](size_t, double v, bool integral) { return TakeIndex(g, v, integral); });
  reader.StreamArray("triangle_areas",
                     [&g](size_t, double v, bool integral) { return TakeArea(g, v, integral); });
}

// "format" and "version" first: anything else is not this format, or a newer one.
absl::Status CheckFormat(const JsonNode& root) {
  absl::StatusOr<JsonNode> format = root.Get("format");
  if (!format.ok()) return format.status();
  absl::StatusOr<std::string> name = format->AsString();
  if (!name.ok()) return name.status();
  if (*name != kExportFormatName) {
    return format->Error(absl::StrFormat("= \"%s\" is not \"%s\"", *name, kExportFormatName));
  }
  absl::StatusOr<JsonNode> version = root.Get("version");
  if (!version.ok()) return version.status();
  absl::StatusOr<int64_t> number = version->AsInt(INT64_MIN, INT64_MAX);
  if (!number.ok()) return number.status();
  if (*number != kExportFormatVersion) {
    return version->Error(absl::StrCat(
        "= ", *number, " is not supported (this build reads version ", kExportFormatVersion, ")"));
  }
  return absl::OkStatus();
}

// Reads optional string member `key` of `object` into `*out`.
absl::Status OptionalString(const JsonNode& object, std::string_view key, std::string* out) {
  std::optional<JsonNode> member = object.Find(key);
  if (!member) return absl::OkStatus();
  absl::StatusOr<std::string> s = member->AsString();
  if (!s.ok()) return s.status();
  *out = *std::move(s);
  return absl::OkStatus();
}

// Reads optional object member `key` of `object`, checking its type.
absl::StatusOr<std::optional<JsonNode>> OptionalObject(const JsonNode& object,
                                                       std::string_view key) {
  std::optional<JsonNode> member = object.Find(key);
  if (member) {
    if (absl::Status s = member->ExpectObject(); !s.ok()) return s;
  }
  return member;
}

absl::Status ReadDescription(const JsonNode& root, SourceMesh& mesh) {
  absl::StatusOr<std::optional<JsonNode>> exporter = OptionalObject(root, "exporter");
  if (!exporter.ok()) return exporter.status();
  if (*exporter) {
    std::string name;  // validated, not kept: SourceMesh records the exporter's version
    if (absl::Status s = OptionalString(**exporter, "name", &name); !s.ok()) return s;
    if (absl::Status s = OptionalString(**exporter, "version", &mesh.exporter_version); !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = OptionalString(root, "unity_version", &mesh.unity_version); !s.ok()) {
    return s;
  }
  absl::StatusOr<std::optional<JsonNode>> scene = OptionalObject(root, "scene");
  if (!scene.ok()) return scene.status();
  if (*scene) {
    if (absl::Status s = OptionalString(**scene, "name", &mesh.scene_name); !s.ok()) return s;
    if (absl::Status s = OptionalString(**scene, "hash", &mesh.source_hash); !s.ok()) return s;
  }
  return absl::OkStatus();
}

// A required number member in [min, max].
absl::StatusOr<float> NumberIn(const JsonNode& object, std::string_view key, double min,
                               double max) {
  absl::StatusOr<JsonNode> member = object.Get(key);
  if (!member.ok()) return member.status();
  absl::StatusOr<double> v = member->AsNumber();
  if (!v.ok()) return v.status();
  if (*v < min || *v > max) {
    return member->Error(absl::StrCat("= ", *v, " is out of range [", min, ", ", max, "]"));
  }
  return static_cast<float>(*v);
}

absl::StatusOr<AgentSettings> ReadAgent(const JsonNode& agent) {
  if (absl::Status s = agent.ExpectObject(); !s.ok()) return s;
  if (auto id = agent.Find("agent_type_id")) {
    if (absl::StatusOr<int64_t> v = id->AsInt(INT32_MIN, INT32_MAX); !v.ok()) return v.status();
  }
  std::string name;
  if (absl::Status s = OptionalString(agent, "name", &name); !s.ok()) return s;
  const double big = tol::kMaxCoordinate;
  absl::StatusOr<float> radius = NumberIn(agent, "radius", 0, big);
  if (!radius.ok()) return radius.status();
  absl::StatusOr<float> height = NumberIn(agent, "height", 0, big);
  if (!height.ok()) return height.status();
  absl::StatusOr<float> slope = NumberIn(agent, "max_slope", 0, 90);
  if (!slope.ok()) return slope.status();
  absl::StatusOr<float> step = NumberIn(agent, "step_height", 0, big);
  if (!step.ok()) return step.status();
  absl::StatusOr<float> voxel = NumberIn(agent, "voxel_size", 0, big);
  if (!voxel.ok()) return voxel.status();
  return AgentSettings{*radius, *height, *slope, *step, *voxel};
}

// agents[0] is the agent the triangulation was baked for; the others are validated only.
absl::Status ReadAgents(const JsonNode& root, SourceMesh& mesh) {
  std::optional<JsonNode> agents = root.Find("agents");
  if (!agents) return absl::OkStatus();
  if (absl::Status s = agents->ExpectArray(); !s.ok()) return s;
  if (agents->size() == 0) return agents->Error("is empty (omit it to use the default agent)");
  for (size_t i = 0; i < agents->size(); ++i) {
    absl::StatusOr<AgentSettings> agent = ReadAgent(agents->At(i));
    if (!agent.ok()) return agent.status();
    if (i == 0) mesh.agent = *agent;
  }
  return absl::OkStatus();
}

absl::Status ReadArea(const JsonNode& entry, SourceMesh& mesh,
                      std::vector<std::string>& declared_at) {
  if (absl::Status s = entry.ExpectObject(); !s.ok()) return s;
  return importer::ReadAreaDeclaration(entry, declared_at, mesh.areas);
}

absl::Status ReadAreas(const JsonNode& root, SourceMesh& mesh) {
  std::optional<JsonNode> areas = root.Find("areas");
  if (!areas) {
    mesh.areas = importer::DefaultAreas();
    return absl::OkStatus();
  }
  if (absl::Status s = areas->ExpectArray(); !s.ok()) return s;
  std::vector<std::string> declared_at(kMaxAreas);
  for (size_t i = 0; i < areas->size(); ++i) {
    if (absl::Status s = ReadArea(areas->At(i), mesh, declared_at); !s.ok()) return s;
  }
  return absl::OkStatus();
}

bool Declared(const SourceMesh& mesh, int64_t area) {
  return area >= 0 && size_t(area) < mesh.areas.size() && mesh.areas[area].has_value();
}

absl::StatusOr<SourceOffMeshLink> ReadLink(const JsonNode& entry, const SourceMesh& mesh) {
  if (absl::Status s = entry.ExpectObject(); !s.ok()) return s;
  SourceOffMeshLink link;
  if (absl::Status s = importer::ReadPoints(entry, {{"start", &link.start}, {"end", &link.end}});
      !s.ok()) {
    return s;
  }
  if (entry.Find("radius")) {
    absl::StatusOr<float> radius = NumberIn(entry, "radius", 0, tol::kMaxCoordinate);
    if (!radius.ok()) return radius.status();
    link.radius = *radius;
  }
  if (auto node = entry.Find("bidirectional")) {
    absl::StatusOr<bool> b = node->AsBool();
    if (!b.ok()) return b.status();
    link.bidirectional = *b;
  }
  if (auto node = entry.Find("area")) {
    absl::StatusOr<int64_t> area = node->AsInt(0, kMaxAreas - 1);
    if (!area.ok()) return area.status();
    if (!Declared(mesh, *area))
      return node->Error(absl::StrCat("= ", *area, " is not a declared area"));
    link.area = static_cast<uint8_t>(*area);
  }
  if (entry.Find("cost")) {
    // Negative means "use the default"; any finite value up to the limit is accepted.
    absl::StatusOr<float> cost = NumberIn(entry, "cost", -tol::kMaxCoordinate, tol::kMaxCoordinate);
    if (!cost.ok()) return cost.status();
    link.cost = *cost;
  }
  return link;
}

absl::Status ReadLinks(const JsonNode& root, SourceMesh& mesh) {
  std::optional<JsonNode> links = root.Find("off_mesh_links");
  if (!links) return absl::OkStatus();
  if (absl::Status s = links->ExpectArray(); !s.ok()) return s;
  mesh.links.reserve(links->size());
  for (size_t i = 0; i < links->size(); ++i) {
    absl::StatusOr<SourceOffMeshLink> link = ReadLink(links->At(i), mesh);
    if (!link.ok()) return link.status();
    mesh.links.push_back(*link);
  }
  return absl::OkStatus();
}

absl::Status Invalid(std::string_view origin, std::string_view message) {
  return absl::InvalidArgumentError(absl::StrFormat("%s: %s", origin, message));
}

// Moves the streamed triangles into `mesh` after checking counts, index ranges and areas.
absl::Status AssembleTriangles(const JsonNode& root, const importer::JsonSaxReader& reader,
                               StreamedGeometry& g, SourceMesh& mesh) {
  const std::string_view origin = mesh.origin;
  // A streamed key that is not an array stayed in the tree.
  for (const char* key : {"vertices", "indices", "triangle_areas"}) {
    if (auto node = root.Find(key)) return node->ExpectArray();
  }
  for (const char* key : {"vertices", "indices"}) {
    if (!reader.Saw(key)) return Invalid(origin, absl::StrCat(key, " is missing (it is required)"));
  }
  if (g.coordinates % 3 != 0) {
    return Invalid(origin, absl::StrCat("vertices has ", g.coordinates,
                                        " numbers, which is not a multiple of 3"));
  }
  if (g.indices.size() % 3 != 0) {
    return Invalid(origin, absl::StrCat("indices has ", g.indices.size(),
                                        " entries, which is not a multiple of 3"));
  }
  const size_t triangles = g.indices.size() / 3;
  for (size_t i = 0; i < g.indices.size(); ++i) {
    if (g.indices[i] >= g.vertices.size()) {
      return Invalid(origin,
                     absl::StrCat("indices[", i, "] = ", g.indices[i],
                                  " is out of range (vertex count ", g.vertices.size(), ")"));
    }
  }
  if (!reader.Saw("triangle_areas")) {
    g.triangle_areas.assign(triangles, kWalkableArea);
  } else if (g.triangle_areas.size() != triangles) {
    return Invalid(origin, absl::StrCat("triangle_areas has ", g.triangle_areas.size(),
                                        " entries but indices define ", triangles, " triangles"));
  }
  for (size_t t = 0; t < triangles; ++t) {
    if (!Declared(mesh, g.triangle_areas[t])) {
      return Invalid(origin, absl::StrCat("triangle_areas[", t, "] = ", g.triangle_areas[t],
                                          " is not a declared area"));
    }
  }
  mesh.vertices = std::move(g.vertices);
  mesh.poly_verts = std::move(g.indices);
  mesh.poly_area = std::move(g.triangle_areas);
  mesh.poly_start.resize(triangles + 1);
  for (size_t t = 0; t <= triangles; ++t) mesh.poly_start[t] = static_cast<uint32_t>(3 * t);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<SourceMesh> ImportUnityExport(std::string_view text, std::string_view origin) {
  SourceMesh mesh;
  mesh.origin = std::string(origin);
  importer::JsonSaxReader reader(text, mesh.origin);
  StreamedGeometry geometry;
  StreamGeometry(reader, geometry);
  absl::StatusOr<nlohmann::json> tree = reader.Parse();
  if (!tree.ok()) return tree.status();
  const JsonNode root(*tree, "", mesh.origin);
  if (absl::Status s = CheckFormat(root); !s.ok()) return s;
  for (auto step : {ReadDescription, ReadAgents, ReadAreas}) {
    if (absl::Status s = step(root, mesh); !s.ok()) return s;
  }
  if (absl::Status s = AssembleTriangles(root, reader, geometry, mesh); !s.ok()) return s;
  if (absl::Status s = ReadLinks(root, mesh); !s.ok()) return s;
  return mesh;
}

}  // namespace waymesh
