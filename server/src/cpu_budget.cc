#include "waymesh/server/cpu_budget.h"

#include <sched.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace waymesh::server {
namespace {

namespace fs = std::filesystem;

// Contents of a small kernel file, or nullopt when it cannot be read.
std::optional<std::string> ReadSmallFile(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// QUOTA / PERIOD (microseconds each) in CPUs; nullopt unless both are positive integers (v1's
// "-1" and v2's "max" mean no limit).
std::optional<double> QuotaInCpus(absl::string_view quota, absl::string_view period) {
  int64_t q = 0, p = 0;
  if (!absl::SimpleAtoi(absl::StripAsciiWhitespace(quota), &q) ||
      !absl::SimpleAtoi(absl::StripAsciiWhitespace(period), &p) || q <= 0 || p <= 0) {
    return std::nullopt;
  }
  return double(q) / double(p);
}

// The quota of cgroup v1's cpu controller in one directory, in CPUs.
std::optional<double> CfsQuota(const fs::path& dir) {
  const auto quota = ReadSmallFile(dir / "cpu.cfs_quota_us");
  const auto period = ReadSmallFile(dir / "cpu.cfs_period_us");
  if (!quota || !period) return std::nullopt;
  return QuotaInCpus(*quota, *period);
}

std::optional<double> Tighter(std::optional<double> a, std::optional<double> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

// The tightest quota found in `leaf` and each of its parents up to `root` by `quota_in`.
template <typename QuotaIn>
std::optional<double> TightestUpTo(const fs::path& root, fs::path leaf, QuotaIn quota_in) {
  std::optional<double> best;
  // A cgroup path has a handful of levels; the bound only guards against odd paths.
  for (int depth = 0; depth < 64; ++depth) {
    best = Tighter(best, quota_in(leaf));
    if (leaf == root || !leaf.has_relative_path() || leaf.parent_path() == leaf) break;
    leaf = leaf.parent_path();
  }
  return best;
}

// This process's cgroup paths from /proc/self/cgroup: the v2 path ("0::PATH") and the path of
// the v1 hierarchy holding the cpu controller ("N:cpu,cpuacct:PATH"); empty when absent.
struct CgroupPaths {
  std::string v2;
  std::string v1_cpu;
};

CgroupPaths ParseProcCgroup(absl::string_view text) {
  CgroupPaths out;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    const std::vector<absl::string_view> f = absl::StrSplit(line, absl::MaxSplits(':', 2));
    if (f.size() != 3) continue;
    if (f[0] == "0" && f[1].empty()) out.v2 = std::string(f[2]);
    for (absl::string_view c : absl::StrSplit(f[1], ',')) {
      if (c == "cpu") out.v1_cpu = std::string(f[2]);
    }
  }
  return out;
}

// `p` without "." / ".." steps or a trailing separator, so that walking up reaches `root`.
fs::path Clean(const fs::path& p) {
  fs::path out = p.lexically_normal();
  if (!out.has_filename() && out != out.root_path()) out = out.parent_path();
  return out;
}

// `base` joined with an absolute cgroup path ("/a/b").
fs::path Under(const fs::path& base, absl::string_view cgroup_path) {
  return Clean(base / fs::path(std::string(absl::StripPrefix(cgroup_path, "/"))));
}

}  // namespace

std::optional<double> ParseCpuMax(absl::string_view text) {
  const std::vector<absl::string_view> f =
      absl::StrSplit(absl::StripAsciiWhitespace(text), ' ', absl::SkipEmpty());
  if (f.size() != 2) return std::nullopt;  // not a cpu.max line
  return QuotaInCpus(f[0], f[1]);
}

std::optional<double> CgroupCpuQuota(const CpuLimitFiles& files) {
  const auto proc = ReadSmallFile(files.proc_self_cgroup);
  const CgroupPaths paths = proc ? ParseProcCgroup(*proc) : CgroupPaths{};
  const fs::path root = Clean(files.cgroup_root);
  // cgroup v2: one tree; inside a container's cgroup namespace the path is "/" and the root
  // is the container's own cgroup.
  if (!paths.v2.empty() && fs::exists(root / "cgroup.controllers")) {
    return TightestUpTo(root, Under(root, paths.v2), [](const fs::path& dir) {
      const auto text = ReadSmallFile(dir / "cpu.max");
      return text ? ParseCpuMax(*text) : std::nullopt;
    });
  }
  // cgroup v1: the cpu controller's own mount, under either of its usual names. A container
  // sees its own cgroup at the mount's root, so the mount root itself is checked as well.
  std::optional<double> best;
  for (const char* mount : {"cpu", "cpu,cpuacct"}) {
    const fs::path base = Clean(root / mount);
    if (!fs::exists(base)) continue;
    best = Tighter(best, TightestUpTo(base, Under(base, paths.v1_cpu), CfsQuota));
  }
  return best;
}

int AffinityCpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1, int(std::thread::hardware_concurrency()));
}

int AvailableCpus(const CpuLimitFiles& files) {
  int cpus = AffinityCpus();
  if (const std::optional<double> quota = CgroupCpuQuota(files)) {
    // Rounded up like Kubernetes' resourceFieldRef; the small slack keeps 2.0000001 at 2.
    cpus = std::min(cpus, int(std::ceil(*quota - 1e-6)));
  }
  return std::max(1, cpus);
}

}  // namespace waymesh::server
