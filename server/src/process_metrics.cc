#include "waymesh/server/process_metrics.h"

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"

namespace waymesh::server {
namespace {

// Fields of /proc/self/stat we read, counted from the state field (field 3 of proc(5)), which
// is the first one after the command name; the name itself may hold spaces and parentheses.
constexpr size_t kStatUtime = 14 - 3;      // user CPU, clock ticks
constexpr size_t kStatStime = 15 - 3;      // system CPU, clock ticks
constexpr size_t kStatStartTime = 22 - 3;  // start, clock ticks after boot
constexpr size_t kStatVsize = 23 - 3;      // virtual memory, bytes
constexpr size_t kStatRss = 24 - 3;        // resident set, pages

struct ProcStat {
  double cpu_seconds = 0;
  double start_ticks = 0;
  double virtual_bytes = 0;
  double resident_bytes = 0;
};

std::optional<ProcStat> ReadProcStat() {
  std::ifstream in("/proc/self/stat");
  std::string line;
  if (!std::getline(in, line)) return std::nullopt;
  const size_t name_end = line.rfind(')');
  if (name_end == std::string::npos || name_end + 2 >= line.size()) return std::nullopt;
  const std::vector<absl::string_view> fields =
      absl::StrSplit(absl::string_view(line).substr(name_end + 2), ' ', absl::SkipEmpty());
  if (fields.size() <= kStatRss) return std::nullopt;
  double utime, stime, start, vsize, rss;
  if (!absl::SimpleAtod(fields[kStatUtime], &utime) ||
      !absl::SimpleAtod(fields[kStatStime], &stime) ||
      !absl::SimpleAtod(fields[kStatStartTime], &start) ||
      !absl::SimpleAtod(fields[kStatVsize], &vsize) || !absl::SimpleAtod(fields[kStatRss], &rss)) {
    return std::nullopt;
  }
  const double ticks_per_second = static_cast<double>(sysconf(_SC_CLK_TCK));
  ProcStat stat;
  stat.cpu_seconds = (utime + stime) / ticks_per_second;
  stat.start_ticks = start / ticks_per_second;
  stat.virtual_bytes = vsize;
  stat.resident_bytes = rss * static_cast<double>(sysconf(_SC_PAGESIZE));
  return stat;
}

// Seconds since the epoch at which the machine booted ("btime" of /proc/stat).
std::optional<double> BootTimeSeconds() {
  std::ifstream in("/proc/stat");
  std::string key;
  double value = 0;
  while (in >> key) {
    if (key == "btime" && (in >> value)) return value;
    in.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return std::nullopt;
}

std::optional<double> OpenFds() {
  std::error_code ec;
  double count = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/self/fd", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    ++count;
  }
  if (ec) return std::nullopt;
  return count - 1;  // the directory iterator's own descriptor
}

prometheus::MetricFamily OneValue(const char* name, const char* help, prometheus::MetricType type,
                                  double value) {
  prometheus::MetricFamily family{name, help, type, {}};
  prometheus::ClientMetric sample;
  if (type == prometheus::MetricType::Counter) {
    sample.counter.value = value;
  } else {
    sample.gauge.value = value;
  }
  family.metric.push_back(std::move(sample));
  return family;
}

}  // namespace

std::vector<prometheus::MetricFamily> CollectProcessMetrics() {
  using prometheus::MetricType;
  std::vector<prometheus::MetricFamily> out;
  if (const std::optional<ProcStat> stat = ReadProcStat()) {
    out.push_back(OneValue("process_cpu_seconds_total",
                           "User plus system CPU time this process has used, in seconds.",
                           MetricType::Counter, stat->cpu_seconds));
    out.push_back(OneValue("process_resident_memory_bytes",
                           "Bytes of this process's memory resident in RAM.", MetricType::Gauge,
                           stat->resident_bytes));
    out.push_back(OneValue("process_virtual_memory_bytes",
                           "Bytes of virtual address space this process has mapped.",
                           MetricType::Gauge, stat->virtual_bytes));
    if (const std::optional<double> boot = BootTimeSeconds()) {
      out.push_back(OneValue("process_start_time_seconds",
                             "When this process started, in seconds since the Unix epoch.",
                             MetricType::Gauge, *boot + stat->start_ticks));
    }
  }
  if (const std::optional<double> fds = OpenFds()) {
    out.push_back(OneValue("process_open_fds", "File descriptors this process has open.",
                           MetricType::Gauge, *fds));
  }
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    out.push_back(OneValue("process_max_fds",
                           "Most file descriptors this process may open (RLIMIT_NOFILE).",
                           MetricType::Gauge, static_cast<double>(limit.rlim_cur)));
  }
  return out;
}

}  // namespace waymesh::server
