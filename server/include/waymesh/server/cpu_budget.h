#pragma once
// How many CPUs this process can really use: the cores of its affinity mask (taskset, cpusets,
// Kubernetes' static CPU manager), capped by a cgroup CPU quota (a container's CPU limit).
// The server's one-worker-per-CPU default counts these, not the machine's cores: a pod limited
// to 2 CPUs on a 64-core node gets 2 query workers, not 64 that the kernel then throttles.

#include <optional>
#include <string>

#include "absl/strings/string_view.h"

namespace waymesh::server {

// Where the limits are read from (tests point these at a tree of their own).
struct CpuLimitFiles {
  std::string proc_self_cgroup = "/proc/self/cgroup";
  std::string cgroup_root = "/sys/fs/cgroup";
};

// CPUs granted by a cgroup v2 `cpu.max` text ("QUOTA PERIOD" in microseconds): QUOTA / PERIOD;
// nullopt for "max PERIOD" (no limit) or text that is not of that form.
std::optional<double> ParseCpuMax(absl::string_view text);

// The tightest CPU quota, in CPUs, on this process's cgroup and its ancestors: cgroup v2's
// cpu.max, else cgroup v1's cpu.cfs_quota_us / cpu.cfs_period_us; nullopt when none is set or
// none can be read.
std::optional<double> CgroupCpuQuota(const CpuLimitFiles& files = {});

// Cores in this process's CPU affinity mask (at least 1).
int AffinityCpus();

// The CPUs this process can keep busy: AffinityCpus(), capped by the cgroup quota rounded up
// (as Kubernetes rounds a fractional limits.cpu for resourceFieldRef); at least 1.
int AvailableCpus(const CpuLimitFiles& files = {});

}  // namespace waymesh::server
