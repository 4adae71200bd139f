#pragma once
// Durations written the way Go (and so ghz) writes them: "10s", "500ms", "1m30s", "1.5h".

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"

namespace waymesh::loadtest {

// Parses a Go duration string (units ns, us, µs, ms, s, m, h; "0" alone is zero). Negative,
// infinite and unit-less values are errors: every duration here is a time span to wait.
absl::StatusOr<absl::Duration> ParseGoDuration(absl::string_view text);

// The Go spelling of `d` ("20s", "1m30s", "250ms"), which ParseGoDuration reads back.
std::string FormatGoDuration(absl::Duration d);

}  // namespace waymesh::loadtest
