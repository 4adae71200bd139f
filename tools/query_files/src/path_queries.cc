// Path query files (moved here from `waymesh path` so `waymesh render` reads the same format).

#include "waymesh/query_files/path_queries.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "absl/strings/strip.h"

namespace waymesh {
namespace {

// Numbers of one line; false with `*error` set when a token is not a finite number.
bool ParseNumbers(const std::vector<absl::string_view>& tokens, std::vector<double>* out,
                  std::string* error) {
  out->clear();
  for (absl::string_view t : tokens) {
    double v;
    if (!absl::SimpleAtod(t, &v) || !std::isfinite(v)) {
      *error = absl::StrFormat("'%s' is not a finite number", t);
      return false;
    }
    out->push_back(v);
  }
  return true;
}

// Polygon flags of a Recast test row: decimal or 0x-prefixed hexadecimal, 0..65535.
bool ParseFlags(absl::string_view t, uint16_t* out) {
  int64_t v = -1;
  const bool ok =
      absl::ConsumePrefix(&t, "0x") ? absl::SimpleHexAtoi(t, &v) : absl::SimpleAtoi(t, &v);
  if (!ok || v < 0 || v > 0xFFFF) return false;
  *out = uint16_t(v);
  return true;
}

// One query from one non-comment line (see path_queries.h for the row kinds).
bool ParseQuery(absl::string_view line, bool scen, PathQuery* q, std::string* error) {
  std::vector<absl::string_view> tokens =
      absl::StrSplit(line, absl::ByAnyChar(" \t,"), absl::SkipEmpty());
  const bool recast = !tokens.empty() && tokens[0] == "pf";
  if (recast) {
    if (tokens.size() != 9 || !ParseFlags(tokens[7], &q->include_flags) ||
        !ParseFlags(tokens[8], &q->exclude_flags)) {
      *error = "pf row needs sx sy sz gx gy gz include exclude (flags 0..0xFFFF)";
      return false;
    }
    tokens = {tokens.begin() + 1, tokens.begin() + 7};
  }
  if (scen) {
    if (tokens.size() != 9) {
      *error = absl::StrFormat(".scen row needs 9 fields, got %d", tokens.size());
      return false;
    }
    tokens.erase(tokens.begin(), tokens.begin() + 4);  // bucket, map, width, height
  }
  std::vector<double> v;
  if (!ParseNumbers(tokens, &v, error)) return false;
  switch (v.size()) {
    case 4:
    case 5:
      q->start = {float(v[0]), 0.0f, float(v[1])};
      q->goal = {float(v[2]), 0.0f, float(v[3])};
      if (v.size() == 5) q->expected = v[4];
      return true;
    case 6:
    case 7:
      q->start = {float(v[0]), float(v[1]), float(v[2])};
      q->goal = {float(v[3]), float(v[4]), float(v[5])};
      if (v.size() == 7) q->expected = v[6];
      return true;
    default:
      *error = absl::StrFormat("expected 4 or 5 numbers (2D) or 6 or 7 (3D), got %d", v.size());
      return false;
  }
}

// Header rows of Recast test files (`s` sample, `f` geometry file) and their raycast rows.
bool IsRecastNonPathRow(absl::string_view text) {
  return absl::StartsWith(text, "s ") || absl::StartsWith(text, "f ") ||
         absl::StartsWith(text, "rc ");
}

}  // namespace

absl::StatusOr<std::vector<PathQuery>> ParsePathQueries(std::string_view text,
                                                        std::string_view origin) {
  std::vector<PathQuery> queries;
  bool scen = false;
  int number = 0;
  const absl::string_view all(text.data(), text.size());
  for (absl::string_view raw : absl::StrSplit(all, '\n')) {
    ++number;
    absl::string_view line = absl::StripAsciiWhitespace(raw);
    if (line.empty() || line[0] == '#') continue;
    if (number == 1 && absl::StartsWith(line, "version")) {
      scen = true;  // Polyanya / MovingAI scenario header
      continue;
    }
    if (IsRecastNonPathRow(line)) continue;
    PathQuery q;
    q.line = number;
    std::string error;
    if (!ParseQuery(line, scen, &q, &error)) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s:%d: %s", std::string(origin), number, error));
    }
    queries.push_back(q);
  }
  return queries;
}

absl::StatusOr<std::vector<PathQuery>> ReadPathQueries(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(absl::StrCat(path, ": is a directory, not a file"));
  }
  std::unique_ptr<FILE, int (*)(FILE*)> file(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!file) return absl::ErrnoToStatus(errno, absl::StrCat(path, ": cannot open"));
  std::string text;
  char buffer[1 << 16];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file.get())) > 0) text.append(buffer, n);
  if (std::ferror(file.get())) {
    return absl::ErrnoToStatus(errno, absl::StrCat(path, ": cannot read"));
  }
  return ParsePathQueries(text, path);
}

}  // namespace waymesh
