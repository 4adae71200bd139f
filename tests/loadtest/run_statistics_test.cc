// Report numbers against values worked out by hand.

#include "waymesh/loadtest/run_statistics.h"

#include <algorithm>
#include <random>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace waymesh::loadtest {
namespace {

constexpr int64_t kMs = 1'000'000;

std::vector<int64_t> OneToTenMs() {
  std::vector<int64_t> v;
  for (int i = 1; i <= 10; ++i) v.push_back(i * kMs);
  return v;
}

TEST(RunStatisticsTest, NearestRankPercentiles) {
  const std::vector<int64_t> v = OneToTenMs();
  // rank = ceil(p * 10 / 100): p10 -> 1st, p25 -> 3rd, p50 -> 5th, p75 -> 8th, p90 -> 9th,
  // p95 and p99 -> 10th.
  EXPECT_EQ(NearestRankPercentile(v, 10), 1 * kMs);
  EXPECT_EQ(NearestRankPercentile(v, 25), 3 * kMs);
  EXPECT_EQ(NearestRankPercentile(v, 50), 5 * kMs);
  EXPECT_EQ(NearestRankPercentile(v, 75), 8 * kMs);
  EXPECT_EQ(NearestRankPercentile(v, 90), 9 * kMs);
  EXPECT_EQ(NearestRankPercentile(v, 95), 10 * kMs);
  EXPECT_EQ(NearestRankPercentile(v, 99), 10 * kMs);
  EXPECT_EQ(NearestRankPercentile({42}, 1), 42);
  EXPECT_EQ(NearestRankPercentile({42}, 99), 42);
  // 200 values 1..200: p99 is the 198th, p10 the 20th.
  std::vector<int64_t> many(200);
  for (int i = 0; i < 200; ++i) many[i] = i + 1;
  EXPECT_EQ(NearestRankPercentile(many, 99), 198);
  EXPECT_EQ(NearestRankPercentile(many, 10), 20);
}

TEST(RunStatisticsTest, HistogramOfTenEqualBuckets) {
  // 1..10 ms: range 9 ms, width 0.9 ms, upper edges 1.9, 2.8, ..., 10 ms. Each value falls in
  // its own bucket: 1 (and the fastest) in (.., 1.9], 2 in (1.9, 2.8], ..., 10 in (9.1, 10].
  const std::vector<HistogramBucket> h = LatencyHistogram(OneToTenMs());
  ASSERT_EQ(h.size(), 10u);
  for (int i = 0; i < 10; ++i) {
    EXPECT_EQ(h[i].mark_ns, 1 * kMs + (i + 1) * 900'000) << i;
    EXPECT_EQ(h[i].count, 1u) << i;
    EXPECT_DOUBLE_EQ(h[i].frequency, 0.1) << i;
  }
  // Skewed: 0, 0, 0, 1, 10 (range 10, width 1): 0s -> bucket 0 (fastest), 1 -> bucket 0 (edge
  // 1 inclusive), 10 -> bucket 9.
  const std::vector<HistogramBucket> s = LatencyHistogram({0, 0, 0, 1, 10});
  ASSERT_EQ(s.size(), 10u);
  EXPECT_EQ(s[0].count, 4u);
  EXPECT_EQ(s[0].mark_ns, 1);
  EXPECT_EQ(s[9].count, 1u);
  EXPECT_EQ(s[9].mark_ns, 10);
  for (int i = 1; i < 9; ++i) EXPECT_EQ(s[i].count, 0u) << i;
  EXPECT_DOUBLE_EQ(s[0].frequency, 0.8);
  // All equal: one bucket; none: no buckets.
  const std::vector<HistogramBucket> flat = LatencyHistogram({5, 5, 5});
  ASSERT_EQ(flat.size(), 1u);
  EXPECT_EQ(flat[0].count, 3u);
  EXPECT_EQ(flat[0].mark_ns, 5);
  EXPECT_TRUE(LatencyHistogram({}).empty());
}

TEST(RunStatisticsTest, HistogramHoldsEveryValueWhateverTheRange) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> dist(1, 7'777'777);
  std::vector<int64_t> v(1001);
  for (int64_t& x : v) x = dist(rng);
  std::sort(v.begin(), v.end());
  const std::vector<HistogramBucket> h = LatencyHistogram(v);
  uint64_t sum = 0;
  double freq = 0;
  for (size_t i = 0; i < h.size(); ++i) {
    sum += h[i].count;
    freq += h[i].frequency;
    if (i > 0) {
      EXPECT_GT(h[i].mark_ns, h[i - 1].mark_ns);
    }
  }
  EXPECT_EQ(sum, v.size());
  EXPECT_NEAR(freq, 1.0, 1e-9);
  EXPECT_EQ(h.back().mark_ns, v.back());
}

TEST(RunStatisticsTest, SummaryCountsEveryCallButTimesTheSuccessfulOnes) {
  RunResult run;
  run.ok_latencies_ns = {4 * kMs, 1 * kMs, 3 * kMs, 2 * kMs};  // completion order, unsorted
  run.status_counts = {{"OK", 4}, {"NotFound", 2}};
  run.error_counts = {{"rpc error: code = NotFound desc = no map", 2}};
  run.count = 6;
  run.total_ns = 500 * kMs;
  const LoadReport r = Summarize(run);
  EXPECT_EQ(r.count, 6u);
  EXPECT_EQ(r.total_ns, 500 * kMs);
  EXPECT_DOUBLE_EQ(r.rps, 12.0);  // 6 calls in 0.5 s
  EXPECT_EQ(r.fastest_ns, 1 * kMs);
  EXPECT_EQ(r.slowest_ns, 4 * kMs);
  EXPECT_EQ(r.average_ns, 2'500'000);
  ASSERT_EQ(r.latency_distribution.size(), 7u);
  EXPECT_EQ(r.latency_distribution[0].percentage, 10);
  EXPECT_EQ(r.latency_distribution[0].latency_ns, 1 * kMs);
  EXPECT_EQ(r.latency_distribution[2].percentage, 50);
  EXPECT_EQ(r.latency_distribution[2].latency_ns, 2 * kMs);
  EXPECT_EQ(r.latency_distribution[6].percentage, 99);
  EXPECT_EQ(r.latency_distribution[6].latency_ns, 4 * kMs);
  EXPECT_EQ(r.histogram.size(), 10u);
  EXPECT_EQ(r.status_counts.at("NotFound"), 2u);
  EXPECT_EQ(r.error_counts.begin()->second, 2u);

  // Nothing succeeded: counts and rates, no latencies.
  RunResult failed;
  failed.count = 3;
  failed.total_ns = kMs;
  failed.status_counts = {{"Unavailable", 3}};
  const LoadReport f = Summarize(failed);
  EXPECT_EQ(f.count, 3u);
  EXPECT_DOUBLE_EQ(f.rps, 3000.0);
  EXPECT_EQ(f.fastest_ns, 0);
  EXPECT_TRUE(f.latency_distribution.empty());
  EXPECT_TRUE(f.histogram.empty());
}

}  // namespace
}  // namespace waymesh::loadtest
