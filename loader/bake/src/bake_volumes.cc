// The `waymesh bake --areas` file (docs/bake.md): area types, area volumes, off-mesh links.

#include "waymesh/bake/bake_volumes.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "waymesh/import/area_declaration.h"
#include "waymesh/import/default_areas.h"
#include "waymesh/io/coordinate_check.h"
#include "waymesh/io/json_node.h"
#include "waymesh/io/json_sax_reader.h"
#include "waymesh/io/mapped_file.h"
#include "waymesh/mesh/tolerances.h"

namespace waymesh {
namespace {

using importer::CheckKeys;
using importer::Coordinate;
using importer::Coordinates;
using importer::JsonNode;
using importer::NumberIn;
using importer::ReadPoints;

bool Declared(const BakeVolumes& file, int64_t area) {
  return area >= 0 && size_t(area) < file.areas.size() && file.areas[area].has_value();
}

absl::StatusOr<uint8_t> DeclaredArea(const JsonNode& node, const BakeVolumes& file,
                                     int64_t max_id) {
  absl::StatusOr<int64_t> area = node.AsInt(0, kMaxAreas - 1);
  if (!area.ok()) return area.status();
  if (!Declared(file, *area)) {
    return node.Error(
        absl::StrCat("= ", *area, " is not a declared area (declare it in \"areas\")"));
  }
  if (*area > max_id) {
    return node.Error(absl::StrCat("= ", *area, " cannot be baked: volumes use areas 0..", max_id));
  }
  return static_cast<uint8_t>(*area);
}

absl::Status ReadArea(const JsonNode& entry, std::vector<std::string>& declared_at,
                      BakeVolumes& file) {
  if (absl::Status s = CheckKeys(entry, {"id", "name", "cost"}); !s.ok()) return s;
  return importer::ReadAreaDeclaration(entry, declared_at, file.areas);
}

// Declarations add to Unity's default table or replace one of its entries by id.
absl::Status ReadAreas(const JsonNode& root, BakeVolumes& file) {
  std::optional<JsonNode> areas = root.Find("areas");
  if (!areas) return absl::OkStatus();
  if (absl::Status s = areas->ExpectArray(); !s.ok()) return s;
  std::vector<std::string> declared_at(kMaxAreas);
  for (size_t i = 0; i < areas->size(); ++i) {
    if (absl::Status s = ReadArea(areas->At(i), declared_at, file); !s.ok()) return s;
  }
  return absl::OkStatus();
}

absl::Status ReadBox(const JsonNode& box, AreaVolume& volume) {
  if (absl::Status s = CheckKeys(box, {"min", "max"}); !s.ok()) return s;
  if (absl::Status s = ReadPoints(box, {{"min", &volume.min}, {"max", &volume.max}}); !s.ok()) {
    return s;
  }
  if (volume.min.x > volume.max.x || volume.min.y > volume.max.y || volume.min.z > volume.max.z) {
    return box.Error("has min above max on some axis (min must be <= max on x, y and z)");
  }
  return absl::OkStatus();
}

// Twice the signed plan-view area of the outline (shoelace).
double OutlineArea2(const std::vector<Vec3>& outline) {
  double sum = 0;
  for (size_t i = 0, j = outline.size() - 1; i < outline.size(); j = i++) {
    sum += double(outline[j].x) * outline[i].z - double(outline[i].x) * outline[j].z;
  }
  return sum;
}

// Every corner turns the same way as the whole outline (collinear corners are allowed).
bool IsConvex(const std::vector<Vec3>& outline) {
  const double orientation = OutlineArea2(outline) > 0 ? 1 : -1;
  const size_t n = outline.size();
  for (size_t i = 0; i < n; ++i) {
    const Vec3 a = outline[i], b = outline[(i + 1) % n], c = outline[(i + 2) % n];
    const double turn =
        (double(b.x) - a.x) * (double(c.z) - a.z) - (double(c.x) - a.x) * (double(b.z) - a.z);
    if (turn * orientation < 0) return false;
  }
  return true;
}

absl::Status ReadPrismOutline(const JsonNode& points, AreaVolume& volume) {
  if (absl::Status s = points.ExpectArray(); !s.ok()) return s;
  if (points.size() < 3) {
    return points.Error(absl::StrCat("has ", points.size(), " points; a prism needs at least 3"));
  }
  for (size_t i = 0; i < points.size(); ++i) {
    absl::StatusOr<std::vector<float>> xz = Coordinates(points.At(i), 2);
    if (!xz.ok()) return xz.status();
    volume.outline.push_back(Vec3{(*xz)[0], 0, (*xz)[1]});
  }
  if (std::abs(OutlineArea2(volume.outline)) <= 2.0 * tol::kDegenerateArea) {
    return points.Error("encloses no area (the points are collinear or repeated)");
  }
  if (!IsConvex(volume.outline)) {
    return points.Error("is not convex (split the volume into convex prisms)");
  }
  return absl::OkStatus();
}

absl::Status ReadPrism(const JsonNode& prism, AreaVolume& volume) {
  if (absl::Status s = CheckKeys(prism, {"points", "y_min", "y_max"}); !s.ok()) return s;
  absl::StatusOr<JsonNode> points = prism.Get("points");
  if (!points.ok()) return points.status();
  if (absl::Status s = ReadPrismOutline(*points, volume); !s.ok()) return s;
  float y[2];
  for (int i = 0; i < 2; ++i) {
    absl::StatusOr<JsonNode> node = prism.Get(i == 0 ? "y_min" : "y_max");
    if (!node.ok()) return node.status();
    absl::StatusOr<float> v = Coordinate(*node);
    if (!v.ok()) return v.status();
    y[i] = *v;
  }
  if (y[0] > y[1]) return prism.Error("has y_min above y_max");
  volume.min = {volume.outline[0].x, y[0], volume.outline[0].z};
  volume.max = {volume.outline[0].x, y[1], volume.outline[0].z};
  for (const Vec3& p : volume.outline) {
    volume.min.x = std::min(volume.min.x, p.x);
    volume.min.z = std::min(volume.min.z, p.z);
    volume.max.x = std::max(volume.max.x, p.x);
    volume.max.z = std::max(volume.max.z, p.z);
  }
  return absl::OkStatus();
}

absl::StatusOr<AreaVolume> ReadVolume(const JsonNode& entry, const BakeVolumes& file) {
  if (absl::Status s = CheckKeys(entry, {"name", "area", "box", "prism"}); !s.ok()) return s;
  AreaVolume volume;
  volume.name = entry.path();
  if (auto name = entry.Find("name")) {
    absl::StatusOr<std::string> text = name->AsString();
    if (!text.ok()) return text.status();
    volume.name = absl::StrCat(entry.path(), " (\"", *text, "\")");
  }
  absl::StatusOr<JsonNode> area = entry.Get("area");
  if (!area.ok()) return area.status();
  absl::StatusOr<uint8_t> id = DeclaredArea(*area, file, kMaxVolumeArea);
  if (!id.ok()) return id.status();
  volume.area = *id;
  const std::optional<JsonNode> box = entry.Find("box");
  const std::optional<JsonNode> prism = entry.Find("prism");
  if (box.has_value() == prism.has_value()) {
    return entry.Error("needs exactly one shape: \"box\" or \"prism\"");
  }
  absl::Status shape = box ? ReadBox(*box, volume) : ReadPrism(*prism, volume);
  if (!shape.ok()) return shape;
  return volume;
}

absl::StatusOr<SourceOffMeshLink> ReadLink(const JsonNode& entry, const BakeVolumes& file) {
  if (absl::Status s =
          CheckKeys(entry, {"start", "end", "radius", "bidirectional", "area", "cost"});
      !s.ok()) {
    return s;
  }
  SourceOffMeshLink link;
  if (absl::Status s = ReadPoints(entry, {{"start", &link.start}, {"end", &link.end}}); !s.ok()) {
    return s;
  }
  if (auto node = entry.Find("radius")) {
    absl::StatusOr<double> radius = NumberIn(*node, 0, tol::kMaxCoordinate);
    if (!radius.ok()) return radius.status();
    link.radius = static_cast<float>(*radius);
  }
  if (auto node = entry.Find("bidirectional")) {
    absl::StatusOr<bool> b = node->AsBool();
    if (!b.ok()) return b.status();
    link.bidirectional = *b;
  }
  if (auto node = entry.Find("area")) {
    absl::StatusOr<uint8_t> area = DeclaredArea(*node, file, kMaxAreas - 1);
    if (!area.ok()) return area.status();
    link.area = *area;
  }
  if (auto node = entry.Find("cost")) {
    // Negative means "length times the area's cost", as in the export format.
    absl::StatusOr<double> cost = NumberIn(*node, -tol::kMaxCoordinate, tol::kMaxCoordinate);
    if (!cost.ok()) return cost.status();
    link.cost = static_cast<float>(*cost);
  }
  return link;
}

template <typename T>
absl::Status ReadList(const JsonNode& root, std::string_view key, const BakeVolumes& file,
                      absl::StatusOr<T> (*read)(const JsonNode&, const BakeVolumes&),
                      std::vector<T>* out) {
  std::optional<JsonNode> list = root.Find(key);
  if (!list) return absl::OkStatus();
  if (absl::Status s = list->ExpectArray(); !s.ok()) return s;
  for (size_t i = 0; i < list->size(); ++i) {
    absl::StatusOr<T> item = read(list->At(i), file);
    if (!item.ok()) return item.status();
    out->push_back(*std::move(item));
  }
  return absl::OkStatus();
}

}  // namespace

BakeVolumes DefaultBakeVolumes() {
  BakeVolumes file;
  file.areas = importer::DefaultAreas();
  return file;
}

absl::StatusOr<BakeVolumes> ParseBakeVolumes(std::string_view text, std::string_view origin) {
  importer::JsonSaxReader reader(text, origin);
  absl::StatusOr<nlohmann::json> tree = reader.Parse();
  if (!tree.ok()) return tree.status();
  const JsonNode root(*tree, "", origin);
  if (absl::Status s = CheckKeys(root, {"areas", "volumes", "off_mesh_links"}); !s.ok()) return s;
  BakeVolumes file = DefaultBakeVolumes();
  if (absl::Status s = ReadAreas(root, file); !s.ok()) return s;
  if (absl::Status s = ReadList(root, "volumes", file, ReadVolume, &file.volumes); !s.ok()) {
    return s;
  }
  if (absl::Status s = ReadList(root, "off_mesh_links", file, ReadLink, &file.links); !s.ok()) {
    return s;
  }
  return file;
}

absl::StatusOr<BakeVolumes> LoadBakeVolumesFile(const std::string& path) {
  absl::StatusOr<std::shared_ptr<const MappedFile>> file = MappedFile::Open(path);
  if (!file.ok()) return file.status();
  return ParseBakeVolumes((*file)->text(), path);
}

}  // namespace waymesh
