#pragma once
// A small Prometheus metrics registry: counters, gauges and histograms with labels, rendered in
// the text exposition format 0.0.4. Observations are lock-free atomics on pre-resolved children;
// only creating a child (a new label combination) and rendering take a lock.

#include <atomic>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace waymesh::server {

// A count that only goes up. Safe from any thread.
class Counter {
 public:
  // Adds `n` to the count.
  void Increment(uint64_t n = 1) { value_.fetch_add(n, std::memory_order_relaxed); }
  // Mirrors a monotonic count kept elsewhere (e.g. the tile cache); never lowers the value.
  void SetFromSource(uint64_t total);
  // Current count.
  uint64_t value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> value_{0};
};

// A value that goes up and down. Safe from any thread.
class Gauge {
 public:
  // Replaces the value.
  void Set(double v) { value_.store(v, std::memory_order_relaxed); }
  // Adds `delta` (may be negative).
  void Add(double delta);
  // Current value.
  double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0.0};
};

// Counts observations into buckets with fixed, strictly increasing upper bounds; the +Inf bucket
// is implicit. Safe from any thread.
class Histogram {
 public:
  // A consistent view for rendering: `cumulative` has bounds().size() + 1 entries, the last is
  // the +Inf bucket and always equals `count`.
  struct Snapshot {
    std::vector<uint64_t> cumulative;
    double sum = 0;
    uint64_t count = 0;
  };

  // `bounds` must outlive the histogram (the owning family keeps them).
  explicit Histogram(std::span<const double> bounds);

  // Records one value; NaN is ignored so the sum stays meaningful.
  void Observe(double v);
  // Cumulative bucket counts, sum and count at one moment.
  Snapshot Snap() const;
  // The finite upper bounds ("le" labels), ascending.
  std::span<const double> bounds() const { return bounds_; }

 private:
  std::span<const double> bounds_;
  std::unique_ptr<std::atomic<uint64_t>[]> counts_;  // per bucket, not cumulative; last = +Inf
  std::atomic<double> sum_{0.0};
};

enum class MetricType { kCounter, kGauge, kHistogram };

// Name, help, type and label names shared by all children of one metric.
class MetricFamilyBase {
 public:
  MetricFamilyBase(std::string name, std::string help, MetricType type,
                   std::vector<std::string> label_names);
  virtual ~MetricFamilyBase() = default;

  const std::string& name() const { return name_; }
  const std::string& help() const { return help_; }
  MetricType type() const { return type_; }
  const std::vector<std::string>& label_names() const { return label_names_; }

  // Appends "# HELP", "# TYPE" and every sample of this family in text format 0.0.4.
  void Render(std::string* out) const;

 protected:
  // Appends the samples of every child (children sorted by label values).
  virtual void RenderSamples(std::string* out) const = 0;

 private:
  std::string name_;
  std::string help_;
  MetricType type_;
  std::vector<std::string> label_names_;
};

// All children of one metric, one per label-value combination.
template <typename Metric>
class MetricFamily final : public MetricFamilyBase {
 public:
  MetricFamily(std::string name, std::string help, MetricType type,
               std::vector<std::string> label_names, std::vector<double> bounds = {})
      : MetricFamilyBase(std::move(name), std::move(help), type, std::move(label_names)),
        bounds_(std::move(bounds)) {}

  // The child for `values` (one per label name, in order), created on first use. The reference
  // stays valid for the family's life: resolve once, then observe without locking.
  // InvalidArgument when the number of values differs from the number of label names.
  absl::StatusOr<Metric*> WithLabels(std::initializer_list<std::string_view> values);
  absl::StatusOr<Metric*> WithLabels(std::span<const std::string> values);

 private:
  void RenderSamples(std::string* out) const override;

  std::vector<double> bounds_;  // histograms only
  mutable std::mutex mu_;
  std::map<std::vector<std::string>, std::unique_ptr<Metric>> children_;  // guarded by mu_
};

using CounterFamily = MetricFamily<Counter>;
using GaugeFamily = MetricFamily<Gauge>;
using HistogramFamily = MetricFamily<Histogram>;

// Upper bounds start, start*factor, ... (`count` of them). Empty for bad arguments.
std::vector<double> ExponentialBuckets(double start, double factor, int count);

// Owns metric families and renders them. Thread-safe.
class MetricRegistry {
 public:
  // Each Add* returns the new family, owned by the registry. Errors: InvalidArgument for a bad
  // metric/label name ([a-zA-Z_:][a-zA-Z0-9_:]*, labels [a-zA-Z_][a-zA-Z0-9_]* not starting
  // with "__"; histograms may not use "le"), bounds not strictly increasing and finite;
  // AlreadyExists when any series name would collide with an existing one (a histogram "x" owns
  // x_bucket, x_sum and x_count).
  absl::StatusOr<CounterFamily*> AddCounter(std::string name, std::string help,
                                            std::vector<std::string> label_names = {});
  absl::StatusOr<GaugeFamily*> AddGauge(std::string name, std::string help,
                                        std::vector<std::string> label_names = {});
  absl::StatusOr<HistogramFamily*> AddHistogram(std::string name, std::string help,
                                                std::vector<std::string> label_names,
                                                std::vector<double> bounds);

  // Runs before every Render (e.g. copies tile-cache stats into gauges); called serially.
  void AddCollector(std::function<void()> collect);

  // Runs the collectors, then renders every family (sorted by name) in text format 0.0.4.
  std::string Render() const;

 private:
  absl::Status Reserve(const std::string& name, MetricType type,
                       const std::vector<std::string>& label_names, std::span<const double> bounds);

  // std::mutex, not absl::Mutex: Debian's abseil is not built with TSan, which then reports
  // false races on everything an absl::Mutex guards.
  mutable std::mutex render_mu_;  // serializes collectors + render across concurrent scrapes
  // Guards families_, series_names_ and collectors_.
  mutable std::mutex mu_;
  std::map<std::string, std::unique_ptr<MetricFamilyBase>> families_;
  std::map<std::string, std::string> series_names_;  // series -> family
  std::vector<std::function<void()>> collectors_;
};

}  // namespace waymesh::server
