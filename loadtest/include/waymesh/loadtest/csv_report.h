#pragma once
// ghz's CSV report (-O csv): one line per call, "duration (ms),status,error".

#include <string>

#include "waymesh/loadtest/run_result.h"

namespace waymesh::loadtest {

// The header line, then each call of `result.calls` in completion order: its latency in
// milliseconds (two decimals, as ghz prints it), its Go code name and its error text (empty
// when OK; quoted as RFC 4180 asks when it holds a comma, quote or line break).
std::string CsvReport(const RunResult& result);

}  // namespace waymesh::loadtest
