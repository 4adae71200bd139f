#pragma once
// ghz's default text report: summary, response time histogram, latency distribution, status
// code and error distributions.

#include <string>

#include "waymesh/loadtest/run_statistics.h"

namespace waymesh::loadtest {

// The report as ghz's "summary" format lays it out (times in milliseconds). `name` is printed
// first when not empty.
std::string FormatSummaryReport(const LoadReport& report, const std::string& name = "");

}  // namespace waymesh::loadtest
