#pragma once
// The report as one self-contained HTML page (-O html): ghz's sections (summary, histogram,
// latency distribution, status codes, errors) and the options, with no scripts or fetched
// resources, so it opens from a CI artifact as it is.

#include <string>

#include "absl/time/time.h"
#include "waymesh/loadtest/load_config.h"
#include "waymesh/loadtest/run_statistics.h"

namespace waymesh::loadtest {

std::string HtmlReport(const LoadReport& report, const LoadConfig& config, absl::Time date);

}  // namespace waymesh::loadtest
