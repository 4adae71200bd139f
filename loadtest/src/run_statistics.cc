#include "waymesh/loadtest/run_statistics.h"

#include <algorithm>

namespace waymesh::loadtest {

int64_t NearestRankPercentile(const std::vector<int64_t>& sorted, int percentage) {
  const uint64_t n = sorted.size();
  uint64_t rank = (static_cast<uint64_t>(percentage) * n + 99) / 100;  // ceil(p * n / 100)
  rank = std::clamp<uint64_t>(rank, 1, n);
  return sorted[rank - 1];
}

std::vector<HistogramBucket> LatencyHistogram(const std::vector<int64_t>& sorted, int buckets) {
  std::vector<HistogramBucket> out;
  if (sorted.empty() || buckets < 1) return out;
  const int64_t fastest = sorted.front();
  const int64_t range = sorted.back() - fastest;
  const double n = static_cast<double>(sorted.size());
  if (range == 0) return {{fastest, sorted.size(), 1.0}};
  out.resize(buckets);
  for (int i = 0; i < buckets; ++i) {
    // Integer edges: the last one is exactly the slowest, so every value lands in a bucket.
    out[i].mark_ns =
        fastest + static_cast<int64_t>(static_cast<__int128>(range) * (i + 1) / buckets);
  }
  int bucket = 0;
  for (int64_t x : sorted) {
    while (x > out[bucket].mark_ns) ++bucket;  // ascending input: the bucket only moves up
    ++out[bucket].count;
  }
  for (HistogramBucket& b : out) b.frequency = static_cast<double>(b.count) / n;
  return out;
}

LoadReport Summarize(const RunResult& result) {
  LoadReport report;
  report.count = result.count;
  report.total_ns = result.total_ns;
  report.status_counts = result.status_counts;
  report.error_counts = result.error_counts;
  report.end_reason = result.end_reason;
  if (result.total_ns > 0) {
    report.rps = static_cast<double>(result.count) / (static_cast<double>(result.total_ns) * 1e-9);
  }
  std::vector<int64_t> sorted = result.ok_latencies_ns;
  if (sorted.empty()) return report;
  std::sort(sorted.begin(), sorted.end());
  long double sum = 0;
  for (int64_t x : sorted) sum += x;
  report.average_ns = static_cast<int64_t>(sum / sorted.size() + 0.5L);
  report.fastest_ns = sorted.front();
  report.slowest_ns = sorted.back();
  for (int p : kReportPercentiles) {
    report.latency_distribution.push_back({p, NearestRankPercentile(sorted, p)});
  }
  report.histogram = LatencyHistogram(sorted);
  return report;
}

}  // namespace waymesh::loadtest
