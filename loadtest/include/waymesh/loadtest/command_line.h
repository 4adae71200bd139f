#pragma once
// waymesh-load's arguments, spelled as ghz spells them: `--total 2000`, `-total=2000`, `-n 2000`.
// Config keys given as flags override the config file.

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace waymesh::loadtest {

enum class ReportFormat { kSummary, kJson, kCsv, kHtml };

// "summary", "json", "csv", "html" (ghz's -O names); InvalidArgument otherwise.
absl::StatusOr<ReportFormat> ParseReportFormat(absl::string_view name);

struct CommandLine {
  std::string config_path;                              // --config
  nlohmann::json overrides = nlohmann::json::object();  // config keys set by flags (checked)
  ReportFormat format = ReportFormat::kSummary;         // -O / --format
  std::string output_path;                              // -o; empty = standard output
  bool allow_remote = false;                            // --allow-remote: hosts beyond loopback
  bool help = false;                                    // -h / --help
};

// Parses `args` (without the program name). Errors name the flag.
absl::StatusOr<CommandLine> ParseCommandLine(const std::vector<std::string>& args);

// The --help text.
std::string UsageText();

}  // namespace waymesh::loadtest
