// Obstacle files (docs/obstacles.md): parsed into a JsonNode tree by the bounded SAX reader,
// checked field by field for types and keys here, then for geometry by core's ValidateObstacle.

#include "waymesh/obstacle_file/obstacle_file.h"

#include <memory>
#include <optional>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "nlohmann/json.hpp"
#include "waymesh/core/nav_map.h"
#include "waymesh/core/tolerances.h"
#include "waymesh/io/json_node.h"
#include "waymesh/io/json_sax_reader.h"
#include "waymesh/io/mapped_file.h"

namespace waymesh {
namespace {

using importer::CheckKeys;
using importer::Coordinate;
using importer::Coordinates;
using importer::JsonNode;
using importer::NumberIn;
using importer::Point;

// Largest yaw accepted, in degrees either way: any angle is some turn, but a yaw of 1e30 is a
// caller's bug, not an intent.
constexpr double kMaxYawDeg = 360.0 * 1000;

absl::StatusOr<float> ReadNumber(const JsonNode& object, const char* key, double min, double max) {
  absl::StatusOr<JsonNode> node = object.Get(key);
  if (!node.ok()) return node.status();
  absl::StatusOr<double> v = NumberIn(*node, min, max);
  if (!v.ok()) return v.status();
  return float(*v);
}

absl::StatusOr<Vec3> ReadPoint(const JsonNode& object, const char* key) {
  absl::StatusOr<JsonNode> node = object.Get(key);
  if (!node.ok()) return node.status();
  return Point(*node);
}

absl::StatusOr<ObstacleShape> ReadCylinder(const JsonNode& o) {
  CylinderShape c;
  absl::StatusOr<Vec3> center = ReadPoint(o, "center");
  if (!center.ok()) return center.status();
  c.center = *center;
  absl::StatusOr<float> radius = ReadNumber(o, "radius", 0, tol::kMaxCoordinate);
  if (!radius.ok()) return radius.status();
  absl::StatusOr<float> height = ReadNumber(o, "height", 0, tol::kMaxCoordinate);
  if (!height.ok()) return height.status();
  c.radius = *radius;
  c.height = *height;
  return c;
}

absl::StatusOr<ObstacleShape> ReadBox(const JsonNode& o) {
  BoxShape b;
  if (absl::Status s =
          importer::ReadPoints(o, {{"center", &b.center}, {"half_extents", &b.half_extents}});
      !s.ok()) {
    return s;
  }
  if (o.Find("yaw_deg")) {
    absl::StatusOr<float> yaw = ReadNumber(o, "yaw_deg", -kMaxYawDeg, kMaxYawDeg);
    if (!yaw.ok()) return yaw.status();
    b.yaw_deg = *yaw;
  }
  return b;
}

absl::StatusOr<ObstacleShape> ReadPrism(const JsonNode& o) {
  PrismShape p;
  absl::StatusOr<JsonNode> points = o.Get("points");
  if (!points.ok()) return points.status();
  if (absl::Status s = points->ExpectArray(); !s.ok()) return s;
  if (points->size() > size_t(kMaxPrismVertices)) {
    return points->Error(absl::StrCat("has more than ", kMaxPrismVertices, " points"));
  }
  for (size_t i = 0; i < points->size(); ++i) {
    absl::StatusOr<std::vector<float>> xz = Coordinates(points->At(i), 2);
    if (!xz.ok()) return xz.status();
    p.points.push_back({(*xz)[0], (*xz)[1]});
  }
  for (auto [key, out] : {std::pair{"y_min", &p.y_min}, std::pair{"y_max", &p.y_max}}) {
    absl::StatusOr<JsonNode> node = o.Get(key);
    if (!node.ok()) return node.status();
    absl::StatusOr<float> v = Coordinate(*node);
    if (!v.ok()) return v.status();
    *out = *v;
  }
  return p;
}

// The keys each shape allows besides the common ones.
absl::Status CheckShapeKeys(const JsonNode& o, std::string_view shape) {
  if (shape == "cylinder") {
    return CheckKeys(o, {"id", "shape", "effect", "area", "center", "radius", "height"});
  }
  if (shape == "box") {
    return CheckKeys(o, {"id", "shape", "effect", "area", "center", "half_extents", "yaw_deg"});
  }
  return CheckKeys(o, {"id", "shape", "effect", "area", "points", "y_min", "y_max"});
}

absl::StatusOr<ObstacleShape> ReadShape(const JsonNode& o) {
  absl::StatusOr<JsonNode> node = o.Get("shape");
  if (!node.ok()) return node.status();
  absl::StatusOr<std::string> shape = node->AsString();
  if (!shape.ok()) return shape.status();
  if (*shape != "cylinder" && *shape != "box" && *shape != "prism") {
    return node->Error(absl::StrFormat("is \"%s\", not one of \"cylinder\", \"box\", \"prism\"",
                                       absl::CHexEscape(*shape)));
  }
  if (absl::Status s = CheckShapeKeys(o, *shape); !s.ok()) return s;
  if (*shape == "cylinder") return ReadCylinder(o);
  if (*shape == "box") return ReadBox(o);
  return ReadPrism(o);
}

absl::Status ReadEffect(const JsonNode& o, Obstacle* out) {
  absl::StatusOr<JsonNode> node = o.Get("effect");
  if (!node.ok()) return node.status();
  absl::StatusOr<std::string> effect = node->AsString();
  if (!effect.ok()) return effect.status();
  const std::optional<JsonNode> area = o.Find("area");
  if (*effect == "block") {
    if (area) return area->Error("is only for \"effect\": \"area\"");
    out->effect = ObstacleEffect::kBlock;
    return absl::OkStatus();
  }
  if (*effect != "area") {
    return node->Error(
        absl::StrFormat("is \"%s\", not \"block\" or \"area\"", absl::CHexEscape(*effect)));
  }
  if (!area) return o.Get("area").status();  // names the missing member
  absl::StatusOr<int64_t> id = area->AsInt(0, kMaxAreas - 1);
  if (!id.ok()) return id.status();
  out->effect = ObstacleEffect::kArea;
  out->area = uint8_t(*id);
  return absl::OkStatus();
}

// Obstacle `index` of the list; `node` already names it by index.
absl::StatusOr<Obstacle> ReadObstacle(const JsonNode& node, size_t index, std::string_view origin) {
  if (absl::Status s = node.ExpectObject(); !s.ok()) return s;
  Obstacle o;
  absl::StatusOr<JsonNode> id = node.Get("id");
  if (!id.ok()) return id.status();
  absl::StatusOr<std::string> name = id->AsString();
  if (!name.ok()) return name.status();
  if (name->empty()) return id->Error("is empty");
  o.id = *std::move(name);
  // From here on errors name the obstacle by id as well as by index.
  const JsonNode named(node.value(),
                       absl::StrFormat("obstacles[%d] (id \"%s\")", index, absl::CHexEscape(o.id)),
                       origin);
  absl::StatusOr<ObstacleShape> shape = ReadShape(named);
  if (!shape.ok()) return shape.status();
  o.shape = *std::move(shape);
  if (absl::Status s = ReadEffect(named, &o); !s.ok()) return s;
  if (absl::Status s = ValidateObstacle(o); !s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: obstacles[%d]: %s", origin, index, s.message()));
  }
  return o;
}

nlohmann::ordered_json PointJson(Vec3 p) { return nlohmann::ordered_json::array({p.x, p.y, p.z}); }

nlohmann::ordered_json ShapeJson(const ObstacleShape& shape) {
  if (const auto* c = std::get_if<CylinderShape>(&shape)) {
    return {{"shape", "cylinder"},
            {"center", PointJson(c->center)},
            {"radius", c->radius},
            {"height", c->height}};
  }
  if (const auto* b = std::get_if<BoxShape>(&shape)) {
    return {{"shape", "box"},
            {"center", PointJson(b->center)},
            {"half_extents", PointJson(b->half_extents)},
            {"yaw_deg", b->yaw_deg}};
  }
  const PrismShape& p = std::get<PrismShape>(shape);
  nlohmann::ordered_json j{{"shape", "prism"}, {"points", nlohmann::ordered_json::array()}};
  for (const auto& xz : p.points) j["points"].push_back({xz[0], xz[1]});
  j["y_min"] = p.y_min;
  j["y_max"] = p.y_max;
  return j;
}

}  // namespace

absl::StatusOr<std::vector<Obstacle>> ParseObstacleFile(std::string_view json,
                                                        std::string_view origin) {
  importer::JsonSaxReader reader(json, origin);
  absl::StatusOr<nlohmann::json> tree = reader.Parse();
  if (!tree.ok()) return tree.status();
  const JsonNode root(*tree, "", origin);
  if (absl::Status s = CheckKeys(root, {"obstacles"}); !s.ok()) return s;
  absl::StatusOr<JsonNode> list = root.Get("obstacles");
  if (!list.ok()) return list.status();
  if (absl::Status s = list->ExpectArray(); !s.ok()) return s;
  if (list->size() > kMaxObstaclesPerFile) {
    return list->Error(absl::StrCat("lists more than ", kMaxObstaclesPerFile, " obstacles"));
  }
  std::vector<Obstacle> obstacles;
  obstacles.reserve(list->size());
  absl::flat_hash_set<std::string> ids;
  for (size_t i = 0; i < list->size(); ++i) {
    absl::StatusOr<Obstacle> o = ReadObstacle(list->At(i), i, origin);
    if (!o.ok()) return o.status();
    if (!ids.insert(o->id).second) {
      return list->At(i).Error(
          absl::StrFormat("repeats the id \"%s\" (ids name obstacles in layers and must be unique)",
                          absl::CHexEscape(o->id)));
    }
    obstacles.push_back(*std::move(o));
  }
  return obstacles;
}

absl::StatusOr<std::vector<Obstacle>> ReadObstacleFile(const std::string& path) {
  absl::StatusOr<std::shared_ptr<const MappedFile>> file = MappedFile::Open(path);
  if (!file.ok()) return file.status();
  return ParseObstacleFile((*file)->text(), path);
}

std::string ObstacleFileJson(const std::vector<Obstacle>& obstacles) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Obstacle& o : obstacles) {
    nlohmann::ordered_json j{{"id", o.id}};
    j.update(ShapeJson(o.shape));
    j["effect"] = o.effect == ObstacleEffect::kBlock ? "block" : "area";
    if (o.effect == ObstacleEffect::kArea) j["area"] = o.area;
    list.push_back(std::move(j));
  }
  return nlohmann::ordered_json{{"obstacles", std::move(list)}}.dump(2);
}

}  // namespace waymesh
