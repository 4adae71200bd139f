#pragma once
// ghz's JSON report (-O json): the shape dashboards and CI scripts written for ghz read.

#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "waymesh/loadtest/load_config.h"
#include "waymesh/loadtest/run_statistics.h"

namespace waymesh::loadtest {

// date (RFC 3339), options (the effective config), count, total, average, fastest, slowest
// (integer nanoseconds), rps, errorDistribution, statusCodeDistribution, latencyDistribution
// [{percentage, latency}], histogram [{mark (seconds), count, frequency}], endReason; in
// ghz's key order.
nlohmann::ordered_json JsonReport(const LoadReport& report, const LoadConfig& config,
                                  absl::Time date);

}  // namespace waymesh::loadtest
