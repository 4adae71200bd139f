#include "query_string.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace waymesh::server {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

absl::StatusOr<std::string> PercentDecode(absl::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '+') {
      out.push_back(' ');
    } else if (text[i] != '%') {
      out.push_back(text[i]);
    } else {
      const int hi = i + 2 < text.size() ? HexDigit(text[i + 1]) : -1;
      const int lo = hi >= 0 ? HexDigit(text[i + 2]) : -1;
      if (lo < 0) return absl::InvalidArgumentError(absl::StrCat("bad %-escape in '", text, "'"));
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    }
  }
  return out;
}

}  // namespace

absl::StatusOr<std::map<std::string, std::string>> ParseQueryString(absl::string_view query) {
  std::map<std::string, std::string> out;
  for (absl::string_view part : absl::StrSplit(query, '&', absl::SkipEmpty())) {
    const std::vector<absl::string_view> kv = absl::StrSplit(part, absl::MaxSplits('=', 1));
    absl::StatusOr<std::string> name = PercentDecode(kv[0]);
    if (!name.ok()) return name.status();
    absl::StatusOr<std::string> value = PercentDecode(kv.size() > 1 ? kv[1] : "");
    if (!value.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("query parameter ", *name, ": ", value.status().message()));
    }
    if (!out.emplace(*name, *std::move(value)).second) {
      return absl::InvalidArgumentError(absl::StrCat("query parameter ", *name, " given twice"));
    }
  }
  return out;
}

}  // namespace waymesh::server
