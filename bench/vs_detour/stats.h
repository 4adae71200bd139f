#pragma once
// Order statistics for benchmark samples: mean, median and tail, mean and worst ratios.

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace waymesh::bench {

// The q-quantile (0..1) of `samples` by nearest rank; NaN when empty. Reorders `samples`.
inline double Quantile(std::vector<double>& samples, double q) {
  if (samples.empty()) return std::numeric_limits<double>::quiet_NaN();
  const double rank = std::ceil(q * static_cast<double>(samples.size()));
  const size_t index = static_cast<size_t>(std::clamp(rank, 1.0, double(samples.size()))) - 1;
  std::nth_element(samples.begin(), samples.begin() + index, samples.end());
  return samples[index];
}

// Mean, median and tail of samples (all NaN when there are none).
struct Spread {
  double mean = std::numeric_limits<double>::quiet_NaN();
  double median = std::numeric_limits<double>::quiet_NaN();
  double p90 = std::numeric_limits<double>::quiet_NaN();
  double p99 = std::numeric_limits<double>::quiet_NaN();
};

// Summarises `samples` (a copy, as Quantile reorders it).
inline Spread SpreadOf(std::vector<double> samples) {
  Spread s;
  if (samples.empty()) return s;
  double sum = 0;
  for (double x : samples) sum += x;
  s.mean = sum / static_cast<double>(samples.size());
  s.median = Quantile(samples, 0.5);
  s.p90 = Quantile(samples, 0.9);
  s.p99 = Quantile(samples, 0.99);
  return s;
}

// Median and 99th percentile of latency samples (nanoseconds).
struct LatencySummary {
  double median_ns = 0;
  double p99_ns = 0;
};

// Summarises `samples`; reorders them.
inline LatencySummary SummarizeLatency(std::vector<double>& samples) {
  LatencySummary s;
  s.median_ns = Quantile(samples, 0.5);
  s.p99_ns = Quantile(samples, 0.99);
  return s;
}

// Mean and maximum of ratios (path length / optimum); NaN when there are none.
struct RatioSummary {
  double mean = std::numeric_limits<double>::quiet_NaN();
  double worst = std::numeric_limits<double>::quiet_NaN();
  size_t count = 0;
};

// Summarises `ratios` (order kept).
inline RatioSummary SummarizeRatios(const std::vector<double>& ratios) {
  RatioSummary s;
  if (ratios.empty()) return s;
  double sum = 0;
  double worst = ratios.front();
  for (double r : ratios) {
    sum += r;
    worst = std::max(worst, r);
  }
  s.mean = sum / static_cast<double>(ratios.size());
  s.worst = worst;
  s.count = ratios.size();
  return s;
}

}  // namespace waymesh::bench
