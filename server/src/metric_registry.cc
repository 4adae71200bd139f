#include "waymesh/server/metric_registry.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "text_format.h"

namespace waymesh::server {

void Counter::SetFromSource(uint64_t total) {
  uint64_t current = value_.load(std::memory_order_relaxed);
  while (total > current &&
         !value_.compare_exchange_weak(current, total, std::memory_order_relaxed)) {
  }
}

void Gauge::Add(double delta) { value_.fetch_add(delta, std::memory_order_relaxed); }

Histogram::Histogram(std::span<const double> bounds)
    : bounds_(bounds), counts_(new std::atomic<uint64_t>[bounds.size() + 1]) {
  for (size_t i = 0; i <= bounds_.size(); ++i) counts_[i].store(0, std::memory_order_relaxed);
}

void Histogram::Observe(double v) {
  if (std::isnan(v)) return;
  // Bucket "le=b" holds v <= b, so the first bound not below v; past the end is +Inf.
  const size_t bucket = std::lower_bound(bounds_.begin(), bounds_.end(), v) - bounds_.begin();
  counts_[bucket].fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(v, std::memory_order_relaxed);
}

Histogram::Snapshot Histogram::Snap() const {
  Snapshot snap;
  snap.cumulative.resize(bounds_.size() + 1);
  uint64_t running = 0;
  for (size_t i = 0; i <= bounds_.size(); ++i) {
    running += counts_[i].load(std::memory_order_relaxed);
    snap.cumulative[i] = running;
  }
  // Count is derived from the buckets, so +Inf == count holds even under concurrent Observe.
  snap.count = running;
  snap.sum = sum_.load(std::memory_order_relaxed);
  return snap;
}

MetricFamilyBase::MetricFamilyBase(std::string name, std::string help, MetricType type,
                                   std::vector<std::string> label_names)
    : name_(std::move(name)),
      help_(std::move(help)),
      type_(type),
      label_names_(std::move(label_names)) {}

void MetricFamilyBase::Render(std::string* out) const {
  static constexpr const char* kTypeNames[] = {"counter", "gauge", "histogram"};
  absl::StrAppend(out, "# HELP ", name_, " ");
  text_format::AppendEscapedHelp(help_, out);
  absl::StrAppend(out, "\n# TYPE ", name_, " ", kTypeNames[static_cast<int>(type_)], "\n");
  RenderSamples(out);
}

template <typename Metric>
absl::StatusOr<Metric*> MetricFamily<Metric>::WithLabels(std::span<const std::string> values) {
  if (values.size() != label_names().size()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "metric ", name(), " takes ", label_names().size(), " label values, got ", values.size()));
  }
  std::vector<std::string> key(values.begin(), values.end());
  std::lock_guard<std::mutex> lock(mu_);
  auto it = children_.find(key);
  if (it == children_.end()) {
    std::unique_ptr<Metric> child;
    if constexpr (std::is_same_v<Metric, Histogram>) {
      child = std::make_unique<Histogram>(bounds_);
    } else {
      child = std::make_unique<Metric>();
    }
    it = children_.emplace(std::move(key), std::move(child)).first;
  }
  return it->second.get();
}

template <typename Metric>
absl::StatusOr<Metric*> MetricFamily<Metric>::WithLabels(
    std::initializer_list<std::string_view> values) {
  std::vector<std::string> owned(values.begin(), values.end());
  return WithLabels(std::span<const std::string>(owned));
}

template <typename Metric>
void MetricFamily<Metric>::RenderSamples(std::string* out) const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [values, child] : children_) {
    if constexpr (std::is_same_v<Metric, Histogram>) {
      const Histogram::Snapshot snap = child->Snap();
      const std::string bucket_name = absl::StrCat(name(), "_bucket");
      std::string le;
      for (size_t i = 0; i < snap.cumulative.size(); ++i) {
        le.clear();
        if (i < bounds_.size()) {
          text_format::AppendValue(bounds_[i], &le);
        } else {
          le = "+Inf";
        }
        text_format::AppendSample(bucket_name, label_names(), values, "le", le,
                                  static_cast<double>(snap.cumulative[i]), out);
      }
      text_format::AppendSample(absl::StrCat(name(), "_sum"), label_names(), values, "", "",
                                snap.sum, out);
      text_format::AppendSample(absl::StrCat(name(), "_count"), label_names(), values, "", "",
                                static_cast<double>(snap.count), out);
    } else {
      text_format::AppendSample(name(), label_names(), values, "", "",
                                static_cast<double>(child->value()), out);
    }
  }
}

template class MetricFamily<Counter>;
template class MetricFamily<Gauge>;
template class MetricFamily<Histogram>;

std::vector<double> ExponentialBuckets(double start, double factor, int count) {
  std::vector<double> bounds;
  if (!(start > 0) || !(factor > 1) || count <= 0 || count > 1000) return bounds;
  bounds.reserve(count);
  double bound = start;
  for (int i = 0; i < count && std::isfinite(bound); ++i, bound *= factor) bounds.push_back(bound);
  return bounds;
}

absl::Status MetricRegistry::Reserve(const std::string& name, MetricType type,
                                     const std::vector<std::string>& label_names,
                                     std::span<const double> bounds) {
  if (!text_format::IsValidMetricName(name)) {
    return absl::InvalidArgumentError(absl::StrCat("bad metric name \"", name, "\""));
  }
  for (size_t i = 0; i < label_names.size(); ++i) {
    const std::string& label = label_names[i];
    if (!text_format::IsValidLabelName(label) ||
        (type == MetricType::kHistogram && label == "le")) {
      return absl::InvalidArgumentError(
          absl::StrCat("metric ", name, ": bad label name \"", label, "\""));
    }
    if (std::find(label_names.begin(), label_names.begin() + i, label) != label_names.begin() + i) {
      return absl::InvalidArgumentError(
          absl::StrCat("metric ", name, ": label \"", label, "\" given twice"));
    }
  }
  for (size_t i = 0; i < bounds.size(); ++i) {
    if (!std::isfinite(bounds[i]) || (i > 0 && bounds[i] <= bounds[i - 1])) {
      return absl::InvalidArgumentError(
          absl::StrCat("metric ", name,
                       ": bucket bounds must be finite and strictly increasing (bound ", i, ")"));
    }
  }
  std::vector<std::string> series = {name};
  if (type == MetricType::kHistogram) {
    for (const char* suffix : {"_bucket", "_sum", "_count"}) series.push_back(name + suffix);
  }
  for (const std::string& s : series) {
    auto it = series_names_.find(s);
    if (it != series_names_.end()) {
      return absl::AlreadyExistsError(absl::StrCat("metric ", name, ": series name ", s,
                                                   " already used by metric ", it->second));
    }
  }
  for (const std::string& s : series) series_names_.emplace(s, name);
  return absl::OkStatus();
}

absl::StatusOr<CounterFamily*> MetricRegistry::AddCounter(std::string name, std::string help,
                                                          std::vector<std::string> label_names) {
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status s = Reserve(name, MetricType::kCounter, label_names, {}); !s.ok()) return s;
  auto family = std::make_unique<CounterFamily>(name, std::move(help), MetricType::kCounter,
                                                std::move(label_names));
  CounterFamily* raw = family.get();
  families_.emplace(std::move(name), std::move(family));
  return raw;
}

absl::StatusOr<GaugeFamily*> MetricRegistry::AddGauge(std::string name, std::string help,
                                                      std::vector<std::string> label_names) {
  std::lock_guard<std::mutex> lock(mu_);
  if (absl::Status s = Reserve(name, MetricType::kGauge, label_names, {}); !s.ok()) return s;
  auto family = std::make_unique<GaugeFamily>(name, std::move(help), MetricType::kGauge,
                                              std::move(label_names));
  GaugeFamily* raw = family.get();
  families_.emplace(std::move(name), std::move(family));
  return raw;
}

absl::StatusOr<HistogramFamily*> MetricRegistry::AddHistogram(std::string name, std::string help,
                                                              std::vector<std::string> label_names,
                                                              std::vector<double> bounds) {
  std::lock_guard<std::mutex> lock(mu_);
  if (bounds.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("metric ", name, ": no bucket bounds"));
  }
  if (absl::Status s = Reserve(name, MetricType::kHistogram, label_names, bounds); !s.ok()) {
    return s;
  }
  auto family = std::make_unique<HistogramFamily>(name, std::move(help), MetricType::kHistogram,
                                                  std::move(label_names), std::move(bounds));
  HistogramFamily* raw = family.get();
  families_.emplace(std::move(name), std::move(family));
  return raw;
}

void MetricRegistry::AddCollector(std::function<void()> collect) {
  std::lock_guard<std::mutex> lock(mu_);
  collectors_.push_back(std::move(collect));
}

std::string MetricRegistry::Render() const {
  std::lock_guard<std::mutex> render_lock(render_mu_);
  std::vector<std::function<void()>> collectors;
  {
    std::lock_guard<std::mutex> lock(mu_);
    collectors = collectors_;
  }
  // Outside mu_: a collector may resolve children or even register metrics.
  for (const auto& collect : collectors) collect();
  std::string out;
  std::lock_guard<std::mutex> lock(mu_);
  for (const auto& [name, family] : families_) family->Render(&out);
  return out;
}

}  // namespace waymesh::server
