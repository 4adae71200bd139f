#pragma once
// Streaming JSON reader for exports of hundreds of megabytes: chosen top-level arrays of numbers
// go straight to callbacks (no document tree, memory proportional to the values kept), the rest
// of the document becomes an ordinary nlohmann::json tree. Errors say where: `origin:line:column`
// for syntax, the JSON path (`vertices[12]`) for values.

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"

namespace waymesh::importer {

// Whether `v` is a whole number that a double holds exactly (|v| <= 2^53).
bool IsWholeNumber(double v);

// Takes element `index` of a streamed array: its value and whether that value is a whole number
// (written as an integer, or as 2e0 or 2.0: exporters write integers as floats).
// Returns a problem ("is not an integer") to stop the parse with "origin: key[index] problem".
using NumberSink =
    std::function<std::optional<std::string>(size_t index, double value, bool integral)>;

class JsonSaxReader {
 public:
  // `text` and `origin` must outlive the reader.
  JsonSaxReader(std::string_view text, std::string_view origin) : text_(text), origin_(origin) {}

  // The top-level array under `key` (when it is an array) goes to `sink`, not into the tree.
  void StreamArray(std::string key, NumberSink sink);
  // Accept a key repeated in the same object when both values are equal (some game-server
  // dumps write whole members twice). Streamed keys may never repeat.
  void AllowIdenticalDuplicateKeys() { allow_identical_duplicates_ = true; }
  // Parses the whole document, which must be one JSON object. Returns that object without the
  // streamed arrays. Duplicate keys are errors (see above), as is nesting deeper than a fixed
  // limit.
  absl::StatusOr<nlohmann::json> Parse();
  // Whether the document had the streamed array `key` (valid after Parse).
  bool Saw(std::string_view key) const;

 private:
  struct Stream {
    std::string key;
    NumberSink sink;
    bool seen = false;
  };
  class Handler;

  std::string_view text_;
  std::string_view origin_;
  std::vector<Stream> streams_;
  bool allow_identical_duplicates_ = false;
};

}  // namespace waymesh::importer
