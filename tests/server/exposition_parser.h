#pragma once
// A strict reader of the Prometheus text exposition format 0.0.4 for tests, and the invariants
// promtool does not check: every sample belongs to a family with HELP and TYPE, no series appears
// twice, histogram buckets are cumulative with ascending "le", and +Inf equals _count.

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace waymesh::testing {

struct ExpositionSample {
  std::string name;
  std::vector<std::pair<std::string, std::string>> labels;  // in text order, values unescaped
  double value = 0;
  int line = 0;  // 1-based line in the text
};

struct Exposition {
  std::map<std::string, std::string> help;  // family -> unescaped HELP text
  std::map<std::string, std::string> type;  // family -> counter | gauge | histogram | ...
  std::vector<ExpositionSample> samples;
};

// Parses `text`; InvalidArgument naming the line for anything malformed.
absl::StatusOr<Exposition> ParseExposition(absl::string_view text);

// Checks the invariants above; FailedPrecondition naming the series that breaks one.
absl::Status CheckExpositionInvariants(const Exposition& exposition);

// Value of the one sample named `name` whose labels include every pair in `labels`; nullopt when
// none or several match.
std::optional<double> FindSample(const Exposition& exposition, absl::string_view name,
                                 const std::vector<std::pair<std::string, std::string>>& labels);

}  // namespace waymesh::testing
