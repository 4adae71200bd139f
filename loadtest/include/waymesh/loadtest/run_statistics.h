#pragma once
// The numbers of a ghz report computed from a run's raw result: latency summary, percentiles,
// a 10-bucket histogram, status and error distributions.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "waymesh/loadtest/run_result.h"

namespace waymesh::loadtest {

// The percentages of ghz's latency distribution.
inline constexpr int kReportPercentiles[] = {10, 25, 50, 75, 90, 95, 99};
inline constexpr int kHistogramBuckets = 10;

struct PercentileLatency {
  int percentage;
  int64_t latency_ns;
};

struct HistogramBucket {
  int64_t mark_ns;  // upper edge of the bucket (inclusive)
  uint64_t count;
  double frequency;  // count / latencies in the histogram
};

struct LoadReport {
  uint64_t count = 0;    // calls completed (OK + errors)
  int64_t total_ns = 0;  // wall time of the run
  // Latency statistics are over the OK calls only (failed calls are usually fast rejections
  // or deadline hits, which would hide the service's real latency); zero when none succeeded.
  int64_t average_ns = 0, fastest_ns = 0, slowest_ns = 0;
  double rps = 0;  // count / total
  std::vector<PercentileLatency> latency_distribution;
  std::vector<HistogramBucket> histogram;
  std::map<std::string, uint64_t> status_counts;
  std::map<std::string, uint64_t> error_counts;
  std::string end_reason;
};

// Nearest-rank percentile of ascending `sorted` (non-empty): the smallest value with at least
// `percentage`% of the values at or below it.
int64_t NearestRankPercentile(const std::vector<int64_t>& sorted, int percentage);

// `buckets` equal-width buckets from the fastest to the slowest of ascending `sorted`; bucket i
// holds the values in (fastest + i*w, fastest + (i+1)*w] (the first also holds the fastest).
// All values equal: one bucket. Empty input: no buckets.
std::vector<HistogramBucket> LatencyHistogram(const std::vector<int64_t>& sorted,
                                              int buckets = kHistogramBuckets);

// The whole report of `result`.
LoadReport Summarize(const RunResult& result);

}  // namespace waymesh::loadtest
