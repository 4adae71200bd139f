#include "waymesh/io/json_sax_reader.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "waymesh/io/text_cursor.h"

namespace waymesh::importer {
namespace {

using nlohmann::json;

// Deeper documents are not exports; the limit keeps the tree (and its destruction) shallow.
constexpr size_t kMaxDepth = 32;
// Messages quote at most this much of a key or of nlohmann's description, so a pathological
// document cannot produce a megabyte-long error.
constexpr size_t kMaxQuoted = 200;

std::string_view Clip(std::string_view s) { return s.substr(0, kMaxQuoted); }

// One open container on the way from the root to the current value.
struct Frame {
  bool array = false;
  size_t index = 0;  // array: index of the current element
  std::string key;   // object: the current member's key
};

// "agents[0].radius" for the value the frames point at; "" at the top level.
std::string PathOf(const std::vector<Frame>& frames) {
  std::string path;
  for (size_t i = 0; i < frames.size(); ++i) {
    if (frames[i].array) {
      absl::StrAppend(&path, "[", frames[i].index, "]");
    } else if (!frames[i].key.empty() || i > 0) {
      absl::StrAppend(&path, i == 0 ? "" : ".", std::string(Clip(frames[i].key)));
    }
  }
  return path;
}

// 1-based line and column of byte `offset` of `text`.
std::pair<size_t, size_t> LineColumn(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  const std::string_view before = text.substr(0, offset);
  const size_t line = 1 + std::count(before.begin(), before.end(), '\n');
  const size_t last_newline = before.rfind('\n');
  const size_t column = last_newline == std::string_view::npos ? offset + 1 : offset - last_newline;
  return {line, column};
}

// nlohmann's message without its "[json.exception...] parse error at line L, column C: " prefix.
std::string_view SyntaxDetail(std::string_view what) {
  const size_t column = what.find("column ");
  if (column == std::string_view::npos) return Clip(what);
  const size_t colon = what.find(": ", column);
  return Clip(colon == std::string_view::npos ? what : what.substr(colon + 2));
}

// Unity and .NET write non-finite floats as bare NaN / Infinity, which JSON cannot hold; name
// them instead of reporting an "invalid literal".
std::optional<std::string> NonFiniteLiteral(std::string_view last_read, int error_id) {
  // nlohmann's "last read" may start with the separators before the bad token.
  const size_t start = last_read.find_last_of(" \t\r\n,[:");
  const std::string_view token =
      start == std::string_view::npos ? last_read : last_read.substr(start + 1);
  constexpr int kNumberOverflow = 406;  // nlohmann out_of_range.406
  if (error_id == kNumberOverflow) {
    return absl::StrCat("is infinite (", QuoteToken(token), " overflows a double)");
  }
  std::string lower = absl::AsciiStrToLower(std::string(token));
  if (!lower.empty() && lower[0] == '-') lower.erase(0, 1);
  // nlohmann stops at the first impossible character: after 'N' of NaN, but after "na" of a
  // lowercase nan (it first tries to read null).
  if (lower == "n" || lower.starts_with("na")) return "is NaN, which JSON cannot represent";
  if (lower.starts_with("i")) return "is infinite, which JSON cannot represent";
  return std::nullopt;
}

}  // namespace

bool IsWholeNumber(double v) {
  constexpr double kLargestExact = 9007199254740992.0;  // 2^53
  return std::fabs(v) <= kLargestExact && std::trunc(v) == v;
}

// nlohmann SAX events -> streamed numbers or tree nodes, with the path of every value.
class JsonSaxReader::Handler {
 public:
  Handler(JsonSaxReader& reader) : reader_(reader) {}

  bool null() { return Scalar(json(nullptr), "null"); }
  bool boolean(bool v) { return Scalar(json(v), "a boolean"); }
  bool number_integer(json::number_integer_t v) { return Number(v, double(v), true); }
  bool number_unsigned(json::number_unsigned_t v) { return Number(v, double(v), true); }
  bool number_float(json::number_float_t v, const json::string_t&) {
    return Number(v, v, IsWholeNumber(v));
  }
  bool string(json::string_t& v) {
    if (stream_ != nullptr) return Fail(PathOf(frames_), StringInNumbers(v));
    return Scalar(json(std::move(v)), "a string");
  }
  bool binary(json::binary_t&) { return Fail(PathOf(frames_), "is binary data"); }
  bool start_object(size_t);
  bool key(json::string_t& k);
  bool end_object() { return CloseContainer(); }
  bool start_array(size_t);
  bool end_array();
  bool parse_error(size_t position, const std::string& last_read,
                   const nlohmann::detail::exception& ex);

  json TakeRoot() { return std::move(root_); }
  absl::Status status() const { return status_; }

 private:
  bool Scalar(json value, std::string_view kind);
  // `value` is the number as the tree would keep it (int64, uint64 or double).
  template <typename T>
  bool Number(T value, double number, bool integral);
  bool CloseContainer();
  // The value at the current path is complete: advance the enclosing array's index, or compare
  // a repeated member with its first value.
  bool Complete();
  // Places `value` at the current path in the tree and returns it there.
  json* Insert(json value);
  bool Fail(const std::string& path, std::string_view problem) {
    status_ = absl::InvalidArgumentError(
        path.empty() ? absl::StrFormat("%s: %s", reader_.origin_, problem)
                     : absl::StrFormat("%s: %s %s", reader_.origin_, path, problem));
    return false;
  }
  static std::string StringInNumbers(std::string_view v);

  JsonSaxReader& reader_;
  json root_;
  std::vector<Frame> frames_;
  std::vector<json*> containers_;  // open tree containers (frames_ minus a streamed array)
  Stream* stream_ = nullptr;       // set while inside a streamed array
  // A repeated key's first value, waiting for the second to complete (innermost last).
  struct Duplicate {
    size_t depth;
    json first;
    std::string path;
  };
  std::vector<Duplicate> duplicates_;
  absl::Status status_;
};

std::string JsonSaxReader::Handler::StringInNumbers(std::string_view v) {
  const std::string lower = absl::AsciiStrToLower(std::string(v));
  if (lower == "nan") return "is NaN";
  if (lower == "infinity" || lower == "-infinity" || lower == "inf" || lower == "-inf") {
    return "is infinite";
  }
  return absl::StrCat("is not a number (string ", QuoteToken(v), ")");
}

json* JsonSaxReader::Handler::Insert(json value) {
  json& parent = *containers_.back();
  if (parent.is_array()) {
    parent.push_back(std::move(value));
    return &parent.back();
  }
  json& slot = parent[frames_.back().key];
  slot = std::move(value);
  return &slot;
}

bool JsonSaxReader::Handler::Scalar(json value, std::string_view kind) {
  if (frames_.empty()) return Fail("", "must be a JSON object at the top level");
  if (stream_ != nullptr)
    return Fail(PathOf(frames_), absl::StrFormat("is %s, not a number", kind));
  Insert(std::move(value));
  return Complete();
}

template <typename T>
bool JsonSaxReader::Handler::Number(T value, double number, bool integral) {
  if (stream_ == nullptr) return Scalar(json(value), "a number");
  if (auto problem = stream_->sink(frames_.back().index, number, integral)) {
    return Fail(PathOf(frames_), *problem);
  }
  return Complete();
}

bool JsonSaxReader::Handler::start_object(size_t) {
  if (stream_ != nullptr) return Fail(PathOf(frames_), "is an object, not a number");
  if (frames_.size() >= kMaxDepth) {
    return Fail(PathOf(frames_), absl::StrCat("nests deeper than ", kMaxDepth, " levels"));
  }
  json* object = frames_.empty() ? &(root_ = json::object()) : Insert(json::object());
  containers_.push_back(object);
  frames_.push_back(Frame{});
  return true;
}

bool JsonSaxReader::Handler::key(json::string_t& k) {
  const bool top = frames_.size() == 1;
  const bool streamed_before =
      top && std::any_of(reader_.streams_.begin(), reader_.streams_.end(),
                         [&](const Stream& s) { return s.seen && s.key == k; });
  frames_.back().key = std::move(k);
  json& object = *containers_.back();
  const auto it = object.find(frames_.back().key);
  if (!streamed_before && it == object.end()) return true;
  if (streamed_before || !reader_.allow_identical_duplicates_) {
    return Fail(PathOf(frames_), "appears twice (duplicate key)");
  }
  duplicates_.push_back(Duplicate{frames_.size(), std::move(*it), PathOf(frames_)});
  object.erase(it);
  return true;
}

bool JsonSaxReader::Handler::Complete() {
  if (frames_.empty()) return true;
  if (frames_.back().array) {
    ++frames_.back().index;
    return true;
  }
  if (duplicates_.empty() || duplicates_.back().depth != frames_.size()) return true;
  const Duplicate first = std::move(duplicates_.back());
  duplicates_.pop_back();
  if (containers_.back()->at(frames_.back().key) == first.first) return true;
  return Fail(first.path, "appears twice with different values");
}

bool JsonSaxReader::Handler::start_array(size_t) {
  if (frames_.empty()) return Fail("", "must be a JSON object at the top level, not an array");
  if (stream_ != nullptr) return Fail(PathOf(frames_), "is an array, not a number");
  if (frames_.size() >= kMaxDepth) {
    return Fail(PathOf(frames_), absl::StrCat("nests deeper than ", kMaxDepth, " levels"));
  }
  if (frames_.size() == 1) {
    for (Stream& s : reader_.streams_) {
      if (s.key == frames_.back().key) {
        s.seen = true;
        stream_ = &s;
        frames_.push_back(Frame{.array = true});
        return true;
      }
    }
  }
  containers_.push_back(Insert(json::array()));
  frames_.push_back(Frame{.array = true});
  return true;
}

bool JsonSaxReader::Handler::end_array() {
  if (stream_ != nullptr) {
    stream_ = nullptr;
    frames_.pop_back();
    return Complete();
  }
  return CloseContainer();
}

bool JsonSaxReader::Handler::CloseContainer() {
  frames_.pop_back();
  containers_.pop_back();
  return Complete();
}

bool JsonSaxReader::Handler::parse_error(size_t position, const std::string& last_read,
                                         const nlohmann::detail::exception& ex) {
  const auto [line, column] = LineColumn(reader_.text_, position == 0 ? 0 : position - 1);
  const std::string where = absl::StrFormat("%s:%d:%d: ", reader_.origin_, line, column);
  const std::string path = PathOf(frames_);
  if (auto non_finite = NonFiniteLiteral(last_read, ex.id); non_finite && !path.empty()) {
    status_ = absl::InvalidArgumentError(absl::StrFormat("%s%s %s", where, path, *non_finite));
  } else {
    const std::string at = path.empty() ? "" : absl::StrCat(" (at ", path, ")");
    status_ = absl::InvalidArgumentError(
        absl::StrFormat("%sinvalid JSON: %s%s", where, SyntaxDetail(ex.what()), at));
  }
  return false;
}

void JsonSaxReader::StreamArray(std::string key, NumberSink sink) {
  streams_.push_back(Stream{std::move(key), std::move(sink)});
}

absl::StatusOr<nlohmann::json> JsonSaxReader::Parse() {
  Handler handler(*this);
  bool ok = false;
  try {
    ok = json::sax_parse(text_.begin(), text_.end(), &handler);
  } catch (const std::exception& e) {
    // sax_parse reports through the handler; anything thrown is a resource failure.
    return absl::ResourceExhaustedError(
        absl::StrFormat("%s: cannot parse JSON: %s", origin_, e.what()));
  }
  if (!ok) {
    if (!handler.status().ok()) return handler.status();
    return absl::InvalidArgumentError(absl::StrFormat("%s: invalid JSON", origin_));
  }
  return handler.TakeRoot();
}

bool JsonSaxReader::Saw(std::string_view key) const {
  return std::any_of(streams_.begin(), streams_.end(),
                     [&](const Stream& s) { return s.seen && s.key == key; });
}

}  // namespace waymesh::importer
