#include "waymesh/io/json_node.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "waymesh/io/coordinate_check.h"
#include "waymesh/io/json_sax_reader.h"
#include "waymesh/io/number_text.h"

namespace waymesh::importer {
namespace {

// "an array", "a string", ... for messages.
const char* KindOf(const nlohmann::json& v) {
  switch (v.type()) {
    case nlohmann::json::value_t::null:
      return "null";
    case nlohmann::json::value_t::object:
      return "an object";
    case nlohmann::json::value_t::array:
      return "an array";
    case nlohmann::json::value_t::string:
      return "a string";
    case nlohmann::json::value_t::boolean:
      return "a boolean";
    case nlohmann::json::value_t::number_float:
      return "a number with a fraction";
    case nlohmann::json::value_t::number_integer:
    case nlohmann::json::value_t::number_unsigned:
      return "an integer";
    default:
      return "binary data";
  }
}

}  // namespace

absl::Status JsonNode::Error(std::string_view message) const {
  if (path_.empty()) return absl::InvalidArgumentError(absl::StrFormat("%s: %s", origin_, message));
  return absl::InvalidArgumentError(absl::StrFormat("%s: %s %s", origin_, path_, message));
}

std::string JsonNode::Child(std::string_view key) const {
  return path_.empty() ? std::string(key) : absl::StrFormat("%s.%s", path_, key);
}

std::optional<JsonNode> JsonNode::Find(std::string_view key) const {
  const auto it = value_->find(key);
  if (it == value_->end()) return std::nullopt;
  return JsonNode(*it, Child(key), origin_);
}

absl::StatusOr<JsonNode> JsonNode::Get(std::string_view key) const {
  if (auto member = Find(key)) return *std::move(member);
  return absl::InvalidArgumentError(
      absl::StrFormat("%s: %s is missing (it is required)", origin_, Child(key)));
}

JsonNode JsonNode::At(size_t i) const {
  return JsonNode((*value_)[i], absl::StrCat(path_, "[", i, "]"), origin_);
}

absl::Status JsonNode::ExpectObject() const {
  if (value_->is_object()) return absl::OkStatus();
  return Error(absl::StrCat("must be an object, not ", KindOf(*value_)));
}

absl::Status JsonNode::ExpectArray() const {
  if (value_->is_array()) return absl::OkStatus();
  return Error(absl::StrCat("must be an array, not ", KindOf(*value_)));
}

absl::StatusOr<std::string> JsonNode::AsString() const {
  if (value_->is_string()) return value_->get<std::string>();
  return Error(absl::StrCat("must be a string, not ", KindOf(*value_)));
}

absl::StatusOr<bool> JsonNode::AsBool() const {
  if (value_->is_boolean()) return value_->get<bool>();
  return Error(absl::StrCat("must be true or false, not ", KindOf(*value_)));
}

absl::StatusOr<double> JsonNode::AsNumber() const {
  if (!value_->is_number()) return Error(absl::StrCat("must be a number, not ", KindOf(*value_)));
  const double v = value_->get<double>();
  if (!std::isfinite(v)) return Error("is not finite");
  return v;
}

absl::StatusOr<int64_t> JsonNode::AsInt(int64_t min, int64_t max) const {
  if (value_->is_number_float()) {
    // 2e0 or 2.0 is the integer 2; 2.5 is not an integer at all.
    const double d = value_->get<double>();
    if (!IsWholeNumber(d)) return Error(absl::StrCat("= ", NumberText(d), " is not an integer"));
    if (d < double(min) || d > double(max)) {
      return Error(absl::StrCat("= ", NumberText(d), " is out of range [", min, ", ", max, "]"));
    }
    return static_cast<int64_t>(d);
  }
  if (!value_->is_number_integer()) {
    return Error(absl::StrCat("must be an integer, not ", KindOf(*value_)));
  }
  // Unsigned values above INT64_MAX are out of every range we ask for.
  if (value_->is_number_unsigned() && value_->get<uint64_t>() > uint64_t(max)) {
    return Error(
        absl::StrCat("= ", value_->get<uint64_t>(), " is out of range [", min, ", ", max, "]"));
  }
  const int64_t v = value_->get<int64_t>();
  if (v < min || v > max) {
    return Error(absl::StrCat("= ", v, " is out of range [", min, ", ", max, "]"));
  }
  return v;
}

absl::Status CheckKeys(const JsonNode& object, std::initializer_list<const char*> allowed) {
  if (absl::Status s = object.ExpectObject(); !s.ok()) return s;
  for (const auto& member : object.value().items()) {
    const std::string& key = member.key();
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; })) {
      return object.Error(absl::StrCat("has unknown key \"", key,
                                       "\" (expected one of: ", absl::StrJoin(allowed, ", "), ")"));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<double> NumberIn(const JsonNode& node, double min, double max) {
  absl::StatusOr<double> v = node.AsNumber();
  if (!v.ok()) return v.status();
  if (*v < min || *v > max) {
    return node.Error(absl::StrCat("= ", *v, " is out of range [", min, ", ", max, "]"));
  }
  return *v;
}

absl::StatusOr<float> Coordinate(const JsonNode& node) {
  if (!node.value().is_number()) return node.Error("must be a number");
  if (auto problem = CoordinateProblem(node.value().get<double>())) return node.Error(*problem);
  return node.value().get<float>();
}

absl::StatusOr<std::vector<float>> Coordinates(const JsonNode& node, size_t n) {
  if (absl::Status s = node.ExpectArray(); !s.ok()) return s;
  if (node.size() != n) return node.Error(absl::StrCat("has ", node.size(), " numbers, not ", n));
  std::vector<float> out;
  for (size_t i = 0; i < n; ++i) {
    absl::StatusOr<float> c = Coordinate(node.At(i));
    if (!c.ok()) return c.status();
    out.push_back(*c);
  }
  return out;
}

absl::StatusOr<Vec3> Point(const JsonNode& node) {
  absl::StatusOr<std::vector<float>> c = Coordinates(node, 3);
  if (!c.ok()) return c.status();
  return Vec3{(*c)[0], (*c)[1], (*c)[2]};
}

absl::Status ReadPoints(const JsonNode& object,
                        std::initializer_list<std::pair<const char*, Vec3*>> members) {
  for (const auto& [key, out] : members) {
    absl::StatusOr<JsonNode> node = object.Get(key);
    if (!node.ok()) return node.status();
    absl::StatusOr<Vec3> p = Point(*node);
    if (!p.ok()) return p.status();
    *out = *p;
  }
  return absl::OkStatus();
}

}  // namespace waymesh::importer
