#include "waymesh/loadtest/go_duration.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"

namespace waymesh::loadtest {

absl::StatusOr<absl::Duration> ParseGoDuration(absl::string_view text) {
  const auto bad = [&](absl::string_view why) {
    return absl::InvalidArgumentError(
        absl::StrCat("invalid duration \"", text, "\": ", why,
                     " (expected e.g. \"10s\", \"500ms\", \"1m30s\")"));
  };
  if (text.empty()) return bad("empty");
  if (text.front() == '-') return bad("negative");
  if (text.front() == '+') text.remove_prefix(1);
  // absl reads Go's grammar except the micro sign spellings of microseconds.
  const std::string ascii = absl::StrReplaceAll(text, {{"\xC2\xB5s", "us"}, {"\xCE\xBCs", "us"}});
  if (ascii == "inf") return bad("infinite");
  absl::Duration d;
  if (!absl::ParseDuration(ascii, &d)) {
    const bool digits_only = ascii.find_first_not_of("0123456789.") == std::string::npos;
    return bad(digits_only && ascii != "0" ? "missing unit" : "not a duration");
  }
  return d;
}

std::string FormatGoDuration(absl::Duration d) { return absl::FormatDuration(d); }

}  // namespace waymesh::loadtest
