#include "waymesh/loadtest/json_report.h"

namespace waymesh::loadtest {

nlohmann::ordered_json JsonReport(const LoadReport& r, const LoadConfig& config, absl::Time date) {
  using json = nlohmann::ordered_json;
  json out = json::object();
  if (!config.name.empty()) out["name"] = config.name;
  out["date"] =
      absl::FormatTime("%Y-%m-%dT%H:%M:%SZ", date, absl::UTCTimeZone());  // as Go prints UTC
  out["options"] = json::parse(ConfigToJson(config).dump());
  out["endReason"] = r.end_reason;
  out["count"] = r.count;
  out["total"] = r.total_ns;
  out["average"] = r.average_ns;
  out["fastest"] = r.fastest_ns;
  out["slowest"] = r.slowest_ns;
  out["rps"] = r.rps;
  json errors = json::object();
  for (const auto& [error, n] : r.error_counts) errors[error] = n;
  out["errorDistribution"] = errors;
  json codes = json::object();
  for (const auto& [code, n] : r.status_counts) codes[code] = n;
  out["statusCodeDistribution"] = codes;
  json latencies = json::array();
  for (const PercentileLatency& p : r.latency_distribution) {
    latencies.push_back({{"percentage", p.percentage}, {"latency", p.latency_ns}});
  }
  out["latencyDistribution"] = latencies;
  json histogram = json::array();
  for (const HistogramBucket& b : r.histogram) {
    histogram.push_back({{"mark", static_cast<double>(b.mark_ns) / 1e9},
                         {"count", b.count},
                         {"frequency", b.frequency}});
  }
  out["histogram"] = histogram;
  return out;
}

}  // namespace waymesh::loadtest
