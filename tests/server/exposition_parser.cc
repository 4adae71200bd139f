#include "exposition_parser.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <set>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace waymesh::testing {
namespace {

using Labels = std::vector<std::pair<std::string, std::string>>;

bool IsNameChar(char c, bool first) {
  const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
  return alpha || (!first && c >= '0' && c <= '9');
}

size_t NameEnd(absl::string_view s, size_t pos) {
  size_t i = pos;
  while (i < s.size() && IsNameChar(s[i], i == pos)) ++i;
  return i;
}

absl::Status LineError(int line, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("line ", line, ": ", what));
}

absl::StatusOr<double> ParseValue(absl::string_view text, int line) {
  if (text == "+Inf") return HUGE_VAL;
  if (text == "-Inf") return -HUGE_VAL;
  if (text == "NaN") return std::nan("");
  const std::string owned(text);
  char* end = nullptr;
  const double v = std::strtod(owned.c_str(), &end);
  if (owned.empty() || end != owned.c_str() + owned.size()) {
    return LineError(line, absl::StrCat("bad value \"", text, "\""));
  }
  return v;
}

// Parses `{a="x",b="y"}` starting at s[*pos] == '{'; leaves *pos after '}'.
absl::Status ParseLabels(absl::string_view s, size_t* pos, int line, Labels* labels) {
  size_t i = *pos + 1;
  while (true) {
    if (i < s.size() && s[i] == '}') break;
    const size_t name_end = NameEnd(s, i);
    if (name_end == i || name_end + 1 >= s.size() || s[name_end] != '=' || s[name_end + 1] != '"') {
      return LineError(line, "bad label");
    }
    std::string name(s.substr(i, name_end - i));
    std::string value;
    i = name_end + 2;
    for (; i < s.size() && s[i] != '"'; ++i) {
      if (s[i] == '\\') {
        if (++i >= s.size()) return LineError(line, "escape at end of line");
        if (s[i] == 'n') {
          value.push_back('\n');
        } else if (s[i] == '\\' || s[i] == '"') {
          value.push_back(s[i]);
        } else {
          return LineError(line, absl::StrCat("bad escape \\", std::string(1, s[i])));
        }
      } else {
        value.push_back(s[i]);
      }
    }
    if (i >= s.size()) return LineError(line, "unterminated label value");
    ++i;  // closing quote
    labels->emplace_back(std::move(name), std::move(value));
    if (i < s.size() && s[i] == ',') {
      ++i;
      continue;
    }
    if (i < s.size() && s[i] == '}') break;
    return LineError(line, "expected ',' or '}' after a label");
  }
  *pos = i + 1;
  return absl::OkStatus();
}

std::string UnescapeHelp(absl::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\\' && i + 1 < text.size() && (text[i + 1] == 'n' || text[i + 1] == '\\')) {
      out.push_back(text[i + 1] == 'n' ? '\n' : '\\');
      ++i;
    } else {
      out.push_back(text[i]);
    }
  }
  return out;
}

absl::Status ParseComment(absl::string_view line_text, int line, Exposition* out) {
  std::vector<absl::string_view> parts = absl::StrSplit(line_text, absl::MaxSplits(' ', 3));
  if (parts.size() < 3 || (parts[1] != "HELP" && parts[1] != "TYPE")) return absl::OkStatus();
  const std::string family(parts[2]);
  if (NameEnd(family, 0) != family.size() || family.empty()) {
    return LineError(line, absl::StrCat("bad metric name in ", parts[1]));
  }
  const absl::string_view rest = parts.size() > 3 ? parts[3] : "";
  auto& table = parts[1] == "HELP" ? out->help : out->type;
  if (!table.emplace(family, parts[1] == "HELP" ? UnescapeHelp(rest) : std::string(rest)).second) {
    return LineError(line, absl::StrCat("second ", parts[1], " for ", family));
  }
  if (parts[1] == "TYPE") {
    static const std::set<absl::string_view> kTypes = {"counter", "gauge", "histogram", "summary",
                                                       "untyped"};
    if (!kTypes.contains(rest)) return LineError(line, absl::StrCat("unknown type ", rest));
    for (const ExpositionSample& s : out->samples) {
      if (s.name == family || s.name == family + "_bucket" || s.name == family + "_sum" ||
          s.name == family + "_count") {
        return LineError(line, absl::StrCat("TYPE of ", family, " after its samples"));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status ParseSampleLine(absl::string_view line_text, int line, Exposition* out) {
  ExpositionSample sample;
  sample.line = line;
  size_t i = NameEnd(line_text, 0);
  if (i == 0) return LineError(line, "sample does not start with a metric name");
  sample.name = std::string(line_text.substr(0, i));
  if (i < line_text.size() && line_text[i] == '{') {
    if (absl::Status s = ParseLabels(line_text, &i, line, &sample.labels); !s.ok()) return s;
  }
  if (i >= line_text.size() || line_text[i] != ' ') return LineError(line, "no value");
  std::vector<absl::string_view> fields =
      absl::StrSplit(line_text.substr(i + 1), ' ', absl::SkipEmpty());
  if (fields.empty() || fields.size() > 2) return LineError(line, "expected value [timestamp]");
  absl::StatusOr<double> value = ParseValue(fields[0], line);
  if (!value.ok()) return value.status();
  sample.value = *value;
  out->samples.push_back(std::move(sample));
  return absl::OkStatus();
}

// The family a sample belongs to: itself, or a histogram/summary it is a part of.
std::string FamilyOf(const Exposition& e, const std::string& name) {
  if (e.type.contains(name)) return name;
  for (const char* suffix : {"_bucket", "_sum", "_count"}) {
    if (name.ends_with(suffix)) {
      const std::string base = name.substr(0, name.size() - std::strlen(suffix));
      auto it = e.type.find(base);
      if (it != e.type.end() && (it->second == "histogram" || it->second == "summary")) {
        return base;
      }
    }
  }
  return "";
}

std::string SeriesKey(const std::string& name, Labels labels) {
  std::sort(labels.begin(), labels.end());
  std::vector<std::string> parts;
  for (const auto& [k, v] : labels) parts.push_back(absl::StrCat(k, "=", v));
  return absl::StrCat(name, "{", absl::StrJoin(parts, ","), "}");
}

struct HistogramSeries {
  std::vector<std::pair<double, double>> buckets;  // (le, cumulative count) in text order
  std::optional<double> sum;
  std::optional<double> count;
};

absl::Status CheckHistogram(const std::string& key, const HistogramSeries& h) {
  auto fail = [&](absl::string_view what) {
    return absl::FailedPreconditionError(absl::StrCat("histogram ", key, ": ", what));
  };
  if (h.buckets.empty()) return fail("no buckets");
  if (!std::isinf(h.buckets.back().first)) return fail("last bucket is not le=\"+Inf\"");
  for (size_t i = 1; i < h.buckets.size(); ++i) {
    if (!(h.buckets[i].first > h.buckets[i - 1].first)) return fail("le not ascending");
    if (h.buckets[i].second < h.buckets[i - 1].second) return fail("buckets not cumulative");
  }
  if (!h.count.has_value()) return fail("no _count");
  if (!h.sum.has_value()) return fail("no _sum");
  if (*h.count != h.buckets.back().second) {
    return fail(absl::StrCat("+Inf bucket ", h.buckets.back().second, " != _count ", *h.count));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Exposition> ParseExposition(absl::string_view text) {
  Exposition out;
  if (!text.empty() && text.back() != '\n') {
    return absl::InvalidArgumentError("text does not end with a newline");
  }
  int line = 0;
  for (absl::string_view line_text : absl::StrSplit(text, '\n')) {
    ++line;
    if (line_text.empty()) continue;
    const absl::Status s = line_text[0] == '#' ? ParseComment(line_text, line, &out)
                                               : ParseSampleLine(line_text, line, &out);
    if (!s.ok()) return s;
  }
  return out;
}

absl::Status CheckExpositionInvariants(const Exposition& e) {
  std::set<std::string> seen;
  std::map<std::string, HistogramSeries> histograms;
  for (const ExpositionSample& s : e.samples) {
    const std::string family = FamilyOf(e, s.name);
    if (family.empty() || !e.help.contains(family)) {
      return absl::FailedPreconditionError(
          absl::StrCat("line ", s.line, ": ", s.name, " has no HELP and TYPE"));
    }
    const std::string key = SeriesKey(s.name, s.labels);
    if (!seen.insert(key).second) {
      return absl::FailedPreconditionError(absl::StrCat("duplicate series ", key));
    }
    const std::string& type = e.type.at(family);
    if (type == "counter" && !(s.value >= 0)) {
      return absl::FailedPreconditionError(absl::StrCat("counter ", key, " is ", s.value));
    }
    if (type != "histogram") continue;
    Labels without_le;
    std::optional<double> le;
    for (const auto& [k, v] : s.labels) {
      if (k == "le") {
        absl::StatusOr<double> bound = ParseValue(v, s.line);
        if (!bound.ok()) return bound.status();
        le = *bound;
      } else {
        without_le.emplace_back(k, v);
      }
    }
    HistogramSeries& h = histograms[SeriesKey(family, without_le)];
    if (s.name == family + "_bucket") {
      if (!le.has_value()) {
        return absl::FailedPreconditionError(absl::StrCat(key, ": bucket without le"));
      }
      h.buckets.emplace_back(*le, s.value);
    } else if (s.name == family + "_sum") {
      h.sum = s.value;
    } else if (s.name == family + "_count") {
      h.count = s.value;
    } else {
      return absl::FailedPreconditionError(absl::StrCat(key, ": not a histogram series"));
    }
  }
  for (const auto& [key, h] : histograms) {
    if (absl::Status s = CheckHistogram(key, h); !s.ok()) return s;
  }
  return absl::OkStatus();
}

std::optional<double> FindSample(const Exposition& e, absl::string_view name,
                                 const std::vector<std::pair<std::string, std::string>>& labels) {
  std::optional<double> found;
  for (const ExpositionSample& s : e.samples) {
    if (s.name != name) continue;
    const bool match = std::all_of(labels.begin(), labels.end(), [&](const auto& want) {
      return std::find(s.labels.begin(), s.labels.end(), want) != s.labels.end();
    });
    if (!match) continue;
    if (found.has_value()) return std::nullopt;
    found = s.value;
  }
  return found;
}

}  // namespace waymesh::testing
