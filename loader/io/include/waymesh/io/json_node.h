#pragma once
// Typed, path-aware access to a parsed JSON tree: every error names the file and the JSON path,
// e.g. `town.json: agents[0].radius must be a number`.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "waymesh/core/vec3.h"

namespace waymesh::importer {

// A value of a parsed document with its path. Refers to the tree, which must outlive it.
class JsonNode {
 public:
  JsonNode(const nlohmann::json& value, std::string path, std::string_view origin)
      : value_(&value), path_(std::move(path)), origin_(origin) {}

  const nlohmann::json& value() const { return *value_; }
  const std::string& path() const { return path_; }

  // InvalidArgument "origin: path message".
  absl::Status Error(std::string_view message) const;

  // Member `key` of this object, or nullopt when absent. This must be an object.
  std::optional<JsonNode> Find(std::string_view key) const;
  // Member `key` of this object; an error when absent.
  absl::StatusOr<JsonNode> Get(std::string_view key) const;
  // Element `i` of this array (i < size()).
  JsonNode At(size_t i) const;
  size_t size() const { return value_->size(); }

  absl::Status ExpectObject() const;
  absl::Status ExpectArray() const;
  absl::StatusOr<std::string> AsString() const;
  absl::StatusOr<bool> AsBool() const;
  // A finite number.
  absl::StatusOr<double> AsNumber() const;
  // A JSON integer (no fraction, no exponent) in [min, max].
  absl::StatusOr<int64_t> AsInt(int64_t min, int64_t max) const;

 private:
  std::string Child(std::string_view key) const;

  const nlohmann::json* value_;
  std::string path_;
  std::string_view origin_;
};

// OK when `object` is an object whose keys are all in `allowed`. Unknown keys are errors: a
// misspelt "aera" must not silently fall back to a default.
absl::Status CheckKeys(const JsonNode& object, std::initializer_list<const char*> allowed);
// A finite number in [min, max].
absl::StatusOr<double> NumberIn(const JsonNode& node, double min, double max);
// A coordinate within the importers' range (coordinate_check.h).
absl::StatusOr<float> Coordinate(const JsonNode& node);
// A JSON array of exactly `n` coordinates.
absl::StatusOr<std::vector<float>> Coordinates(const JsonNode& node, size_t n);
// A JSON array [x, y, z] of coordinates.
absl::StatusOr<Vec3> Point(const JsonNode& node);
// Required members of `object` that are points, each read into its target ("min" -> &box.min).
absl::Status ReadPoints(const JsonNode& object,
                        std::initializer_list<std::pair<const char*, Vec3*>> members);

}  // namespace waymesh::importer
