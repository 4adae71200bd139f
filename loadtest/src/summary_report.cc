#include "waymesh/loadtest/summary_report.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace waymesh::loadtest {
namespace {

constexpr int kBarWidth = 40;
constexpr char kBarChar[] = "\xE2\x88\x8E";  // U+220E, as ghz draws its bars

std::string Millis(int64_t ns) { return absl::StrFormat("%.2f ms", static_cast<double>(ns) / 1e6); }

}  // namespace

std::string FormatSummaryReport(const LoadReport& r, const std::string& name) {
  std::string out = "\nSummary:\n";
  if (!name.empty()) absl::StrAppend(&out, "  Name:\t\t", name, "\n");
  absl::StrAppend(&out, "  Count:\t", r.count, "\n");
  absl::StrAppend(&out, "  Total:\t", Millis(r.total_ns), "\n");
  absl::StrAppend(&out, "  Slowest:\t", Millis(r.slowest_ns), "\n");
  absl::StrAppend(&out, "  Fastest:\t", Millis(r.fastest_ns), "\n");
  absl::StrAppend(&out, "  Average:\t", Millis(r.average_ns), "\n");
  absl::StrAppend(&out, "  Requests/sec:\t", absl::StrFormat("%.2f", r.rps), "\n");

  if (!r.histogram.empty()) {
    absl::StrAppend(&out, "\nResponse time histogram:\n");
    uint64_t most = 0;
    for (const HistogramBucket& b : r.histogram) most = std::max(most, b.count);
    for (const HistogramBucket& b : r.histogram) {
      const int bar =
          most == 0 ? 0 : static_cast<int>(std::lround(1.0 * b.count * kBarWidth / most));
      std::string bars;
      for (int i = 0; i < bar; ++i) bars += kBarChar;
      absl::StrAppend(&out, absl::StrFormat("  %.3f [%d]\t|", b.mark_ns / 1e6, b.count), bars,
                      "\n");
    }
  }
  if (!r.latency_distribution.empty()) {
    absl::StrAppend(&out, "\nLatency distribution:\n");
    for (const PercentileLatency& p : r.latency_distribution) {
      absl::StrAppend(&out, "  ", p.percentage, " % in ", Millis(p.latency_ns), " \n");
    }
  }
  absl::StrAppend(&out, "\nStatus code distribution:\n");
  for (const auto& [code, n] : r.status_counts) {
    absl::StrAppend(&out, "  [", code, "]   ", n, " responses   \n");
  }
  if (!r.error_counts.empty()) {
    absl::StrAppend(&out, "\nError distribution:\n");
    for (const auto& [error, n] : r.error_counts) {
      absl::StrAppend(&out, "  [", n, "]   ", error, "   \n");
    }
  }
  absl::StrAppend(&out, "\n");
  return out;
}

}  // namespace waymesh::loadtest
