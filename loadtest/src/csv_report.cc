#include "waymesh/loadtest/csv_report.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"

namespace waymesh::loadtest {
namespace {

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  return absl::StrCat("\"", absl::StrReplaceAll(text, {{"\"", "\"\""}}), "\"");
}

}  // namespace

std::string CsvReport(const RunResult& result) {
  std::string out = "duration (ms),status,error\n";
  for (const CallRecord& call : result.calls) {
    absl::StrAppend(&out, absl::StrFormat("%.2f", static_cast<double>(call.latency_ns) / 1e6), ",",
                    CsvField(call.status), ",", CsvField(call.error), "\n");
  }
  return out;
}

}  // namespace waymesh::loadtest
