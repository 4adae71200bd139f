// The metrics registry: values, histogram invariants, text format 0.0.4 and name rules.

#include "waymesh/server/metric_registry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>
#include <vector>

#include "exposition_parser.h"

namespace waymesh::server {
namespace {

using ::waymesh::testing::CheckExpositionInvariants;
using ::waymesh::testing::FindSample;
using ::waymesh::testing::ParseExposition;

TEST(CounterTest, IncrementsAndMirrorsWithoutGoingDown) {
  Counter c;
  c.Increment();
  c.Increment(4);
  EXPECT_EQ(c.value(), 5u);
  c.SetFromSource(9);
  EXPECT_EQ(c.value(), 9u);
  c.SetFromSource(3);  // a source restart must not make a counter go backwards
  EXPECT_EQ(c.value(), 9u);
}

TEST(GaugeTest, SetsAndAdds) {
  Gauge g;
  g.Set(2.5);
  g.Add(-4);
  EXPECT_DOUBLE_EQ(g.value(), -1.5);
}

TEST(HistogramTest, UpperBoundsAreInclusiveAndBucketsCumulative) {
  const std::vector<double> bounds = {0.001, 0.01, 0.1};
  Histogram h(bounds);
  for (double v : {0.0005, 0.001, 0.002, 0.01, 0.5, 7.0}) h.Observe(v);
  h.Observe(std::nan(""));  // ignored
  const Histogram::Snapshot snap = h.Snap();
  ASSERT_EQ(snap.cumulative.size(), 4u);
  EXPECT_EQ(snap.cumulative[0], 2u);  // 0.0005, 0.001 (le is inclusive)
  EXPECT_EQ(snap.cumulative[1], 4u);  // + 0.002, 0.01
  EXPECT_EQ(snap.cumulative[2], 4u);
  EXPECT_EQ(snap.cumulative[3], 6u);  // +Inf: 0.5 and 7
  EXPECT_EQ(snap.count, 6u);
  EXPECT_DOUBLE_EQ(snap.sum, 0.0005 + 0.001 + 0.002 + 0.01 + 0.5 + 7.0);
}

TEST(MetricRegistryTest, RendersTextFormatWithEscaping) {
  MetricRegistry registry;
  CounterFamily* requests =
      *registry.AddCounter("demo_requests_total", "Requests \\ seen\nhere.", {"path"});
  (*requests->WithLabels({"a\"b\\c\nd"}))->Increment(3);
  GaugeFamily* temp = *registry.AddGauge("demo_temperature", "Temperature.");
  (*temp->WithLabels({}))->Set(-0.25);
  HistogramFamily* latency =
      *registry.AddHistogram("demo_latency_seconds", "Latency.", {"m"}, {0.0001, 0.5});
  (*latency->WithLabels({"x"}))->Observe(0.2);
  EXPECT_EQ(registry.Render(),
            "# HELP demo_latency_seconds Latency.\n"
            "# TYPE demo_latency_seconds histogram\n"
            "demo_latency_seconds_bucket{m=\"x\",le=\"0.0001\"} 0\n"
            "demo_latency_seconds_bucket{m=\"x\",le=\"0.5\"} 1\n"
            "demo_latency_seconds_bucket{m=\"x\",le=\"+Inf\"} 1\n"
            "demo_latency_seconds_sum{m=\"x\"} 0.2\n"
            "demo_latency_seconds_count{m=\"x\"} 1\n"
            "# HELP demo_requests_total Requests \\\\ seen\\nhere.\n"
            "# TYPE demo_requests_total counter\n"
            "demo_requests_total{path=\"a\\\"b\\\\c\\nd\"} 3\n"
            "# HELP demo_temperature Temperature.\n"
            "# TYPE demo_temperature gauge\n"
            "demo_temperature -0.25\n");
}

TEST(MetricRegistryTest, FormatsNumbersLikeTheGoClient) {
  // strconv.FormatFloat(v, 'g', -1, 64): "le" values must match what Go exporters write.
  MetricRegistry registry;
  GaugeFamily* family = *registry.AddGauge("demo_value", "h", {"case"});
  const std::pair<const char*, double> cases[] = {
      {"a", 0.0001},   {"b", 1e-5},         {"c", 262144}, {"d", 1048576},
      {"e", 1e6},      {"f", 0.25},         {"g", -3},     {"h", 123456.5},
      {"i", HUGE_VAL}, {"j", std::nan("")}, {"k", 0},      {"l", 1e21}};
  for (const auto& [name, value] : cases) (*family->WithLabels({name}))->Set(value);
  const std::string text = registry.Render();
  for (const char* want :
       {"{case=\"a\"} 0.0001\n", "{case=\"b\"} 1e-05\n", "{case=\"c\"} 262144\n",
        "{case=\"d\"} 1.048576e+06\n", "{case=\"e\"} 1e+06\n", "{case=\"f\"} 0.25\n",
        "{case=\"g\"} -3\n", "{case=\"h\"} 123456.5\n", "{case=\"i\"} +Inf\n", "{case=\"j\"} NaN\n",
        "{case=\"k\"} 0\n", "{case=\"l\"} 1e+21\n"}) {
    EXPECT_NE(text.find(want), std::string::npos) << want << " not in\n" << text;
  }
}

TEST(MetricRegistryTest, RenderedTextParsesBackToTheSameValues) {
  MetricRegistry registry;
  CounterFamily* family = *registry.AddCounter("demo_total", "Help.", {"k", "q"});
  const std::string odd = "quote\" back\\ nl\n end";
  (*family->WithLabels({odd, "2"}))->Increment(7);
  (*family->WithLabels({"plain", "1"}))->Increment(1);
  absl::StatusOr<testing::Exposition> parsed = ParseExposition(registry.Render());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_TRUE(CheckExpositionInvariants(*parsed).ok());
  EXPECT_EQ(FindSample(*parsed, "demo_total", {{"k", odd}}), 7.0);
  EXPECT_EQ(FindSample(*parsed, "demo_total", {{"k", "plain"}}), 1.0);
  EXPECT_EQ(parsed->help.at("demo_total"), "Help.");
}

TEST(MetricRegistryTest, SameLabelsGiveTheSameChild) {
  MetricRegistry registry;
  GaugeFamily* family = *registry.AddGauge("demo_gauge", "Help.", {"a"});
  EXPECT_EQ(*family->WithLabels({"x"}), *family->WithLabels({"x"}));
  EXPECT_NE(*family->WithLabels({"x"}), *family->WithLabels({"y"}));
  EXPECT_EQ(family->WithLabels({}).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(family->WithLabels({"x", "y"}).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST(MetricRegistryTest, RejectsBadNamesLabelsAndBounds) {
  MetricRegistry registry;
  const auto kInvalid = absl::StatusCode::kInvalidArgument;
  EXPECT_EQ(registry.AddCounter("1starts_with_digit", "h").status().code(), kInvalid);
  EXPECT_EQ(registry.AddCounter("has-dash", "h").status().code(), kInvalid);
  EXPECT_EQ(registry.AddCounter("", "h").status().code(), kInvalid);
  EXPECT_EQ(registry.AddCounter("ok_total", "h", {"__reserved"}).status().code(), kInvalid);
  EXPECT_EQ(registry.AddCounter("ok_total", "h", {"a:b"}).status().code(), kInvalid);
  EXPECT_EQ(registry.AddCounter("ok_total", "h", {"a", "a"}).status().code(), kInvalid);
  EXPECT_EQ(registry.AddHistogram("h_seconds", "h", {"le"}, {1}).status().code(), kInvalid);
  EXPECT_EQ(registry.AddHistogram("h_seconds", "h", {}, {}).status().code(), kInvalid);
  EXPECT_EQ(registry.AddHistogram("h_seconds", "h", {}, {1, 1}).status().code(), kInvalid);
  EXPECT_EQ(registry.AddHistogram("h_seconds", "h", {}, {2, 1}).status().code(), kInvalid);
  EXPECT_EQ(registry.AddHistogram("h_seconds", "h", {}, {1, HUGE_VAL}).status().code(), kInvalid);
  EXPECT_EQ(registry.AddHistogram("h_seconds", "h", {}, {std::nan("")}).status().code(), kInvalid);
  // Failed registrations reserve nothing.
  EXPECT_TRUE(registry.AddCounter("ok_total", "h", {"a"}).ok());
  EXPECT_TRUE(registry.AddHistogram("h_seconds", "h", {"a"}, {1, 2}).ok());
  EXPECT_TRUE(registry.AddGauge("colons:are_ok", "h").ok());
}

TEST(MetricRegistryTest, RejectsEveryDuplicateSeriesName) {
  MetricRegistry registry;
  ASSERT_TRUE(registry.AddHistogram("x", "h", {}, {1}).ok());
  const auto kExists = absl::StatusCode::kAlreadyExists;
  EXPECT_EQ(registry.AddHistogram("x", "h", {}, {1}).status().code(), kExists);
  EXPECT_EQ(registry.AddGauge("x", "h").status().code(), kExists);
  EXPECT_EQ(registry.AddCounter("x_count", "h").status().code(), kExists);
  EXPECT_EQ(registry.AddGauge("x_bucket", "h").status().code(), kExists);
  ASSERT_TRUE(registry.AddCounter("y_sum", "h").ok());
  EXPECT_EQ(registry.AddHistogram("y", "h", {}, {1}).status().code(), kExists);
  absl::StatusOr<testing::Exposition> parsed = ParseExposition(registry.Render());
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(parsed->type.size(), 2u);
}

TEST(MetricRegistryTest, CollectorsRunBeforeEachRender) {
  MetricRegistry registry;
  Gauge* gauge = *(*registry.AddGauge("demo_collected", "h"))->WithLabels({});
  int calls = 0;
  registry.AddCollector([&] { gauge->Set(++calls * 10); });
  EXPECT_NE(registry.Render().find("demo_collected 10\n"), std::string::npos);
  EXPECT_NE(registry.Render().find("demo_collected 20\n"), std::string::npos);
}

TEST(MetricRegistryTest, ConcurrentObservationsAndScrapesKeepInvariants) {
  MetricRegistry registry;
  HistogramFamily* family =
      *registry.AddHistogram("demo_seconds", "h", {"t"}, ExponentialBuckets(0.001, 2, 10));
  CounterFamily* counter = *registry.AddCounter("demo_total", "h", {"t"});
  constexpr int kThreads = 4;
  constexpr int kObservations = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      // Each thread resolves its own child and one shared child, like workers do.
      Histogram* own = *family->WithLabels({std::to_string(t)});
      Histogram* shared = *family->WithLabels({"shared"});
      Counter* c = *counter->WithLabels({"shared"});
      for (int i = 0; i < kObservations; ++i) {
        own->Observe(i * 1e-6);
        shared->Observe(i * 1e-6);
        c->Increment();
      }
    });
  }
  int scrapes = 0;
  for (; scrapes < 50; ++scrapes) {
    absl::StatusOr<testing::Exposition> parsed = ParseExposition(registry.Render());
    ASSERT_TRUE(parsed.ok()) << parsed.status();
    ASSERT_TRUE(CheckExpositionInvariants(*parsed).ok()) << CheckExpositionInvariants(*parsed);
  }
  for (std::thread& t : threads) t.join();
  absl::StatusOr<testing::Exposition> parsed = ParseExposition(registry.Render());
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(FindSample(*parsed, "demo_seconds_count", {{"t", "shared"}}),
            double{kThreads * kObservations});
  EXPECT_EQ(FindSample(*parsed, "demo_seconds_bucket", {{"t", "shared"}, {"le", "+Inf"}}),
            double{kThreads * kObservations});
  EXPECT_EQ(FindSample(*parsed, "demo_seconds_count", {{"t", "2"}}), double{kObservations});
  EXPECT_EQ(FindSample(*parsed, "demo_total", {{"t", "shared"}}), double{kThreads * kObservations});
}

TEST(ExponentialBucketsTest, GrowsByTheFactorAndRejectsBadArguments) {
  EXPECT_EQ(ExponentialBuckets(1, 4, 4), (std::vector<double>{1, 4, 16, 64}));
  EXPECT_TRUE(ExponentialBuckets(0, 2, 3).empty());
  EXPECT_TRUE(ExponentialBuckets(1, 1, 3).empty());
  EXPECT_TRUE(ExponentialBuckets(1, 2, 0).empty());
}

}  // namespace
}  // namespace waymesh::server
