// CPU budget: cgroup v2 and v1 quotas read from a fake /proc and /sys/fs/cgroup tree, the
// tightest of a cgroup and its ancestors winning; the affinity mask capping the count; and
// waymesh-server started under taskset defaulting to one worker per allowed core.

#include "waymesh/server/cpu_budget.h"

#include <sched.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "child_process.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "support/demo_town.h"

namespace waymesh::testing {
namespace {

namespace fs = std::filesystem;
using server::AffinityCpus;
using server::AvailableCpus;
using server::CgroupCpuQuota;
using server::CpuLimitFiles;
using server::ParseCpuMax;
using ::testing::HasSubstr;
using ::testing::Optional;

// A fake /proc/self/cgroup and cgroup mount under a temporary directory.
class FakeCgroups {
 public:
  explicit FakeCgroups(const std::string& proc_self_cgroup) {
    Put("proc_self_cgroup", proc_self_cgroup);
  }
  // Writes `text` to the file `relative` (under the fake cgroup root when it starts with "cg/").
  void Put(const std::string& relative, const std::string& text) const {
    const fs::path path = fs::path(dir_.path()) / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path) << text;
  }
  CpuLimitFiles files() const {
    return CpuLimitFiles{dir_.path() + "/proc_self_cgroup", dir_.path() + "/cg"};
  }

 private:
  TempDir dir_;
};

// A cgroup v2 tree for a process in cgroup `path`, with cpu.max files {directory, content}
// ("" is the mount root).
std::unique_ptr<FakeCgroups> CgroupV2(
    const std::string& path, std::initializer_list<std::pair<std::string, std::string>> cpu_max) {
  auto cg = std::make_unique<FakeCgroups>("0::" + path + "\n");
  cg->Put("cg/cgroup.controllers", "cpu memory\n");
  for (const auto& [dir, text] : cpu_max) {
    cg->Put(dir.empty() ? "cg/cpu.max" : "cg/" + dir + "/cpu.max", text + "\n");
  }
  return cg;
}

TEST(CpuBudgetTest, ParsesCgroupV2CpuMax) {
  EXPECT_THAT(ParseCpuMax("200000 100000\n"), Optional(2.0));
  EXPECT_THAT(ParseCpuMax("150000 100000"), Optional(1.5));
  EXPECT_EQ(ParseCpuMax("max 100000\n"), std::nullopt);
  for (const char* bad : {"", "100000", "0 100000", "-5 100000", "100 0", "a b", "1 2 3"}) {
    EXPECT_EQ(ParseCpuMax(bad), std::nullopt) << bad;
  }
}

TEST(CpuBudgetTest, CgroupV2TakesTheTightestQuotaOfTheCgroupAndItsAncestors) {
  const auto cg = CgroupV2("/kubepods/pod1/app", {{"", "max 100000"},
                                                  {"kubepods", "800000 100000"},
                                                  {"kubepods/pod1", "250000 100000"},
                                                  {"kubepods/pod1/app", "max 100000"}});
  EXPECT_THAT(CgroupCpuQuota(cg->files()), Optional(2.5));
}

TEST(CpuBudgetTest, CgroupV2InsideAContainerNamespaceReadsTheMountRoot) {
  EXPECT_THAT(CgroupCpuQuota(CgroupV2("/", {{"", "100000 100000"}})->files()), Optional(1.0));
}

TEST(CpuBudgetTest, NoQuotaAnywhereMeansNoLimit) {
  const auto v2 = CgroupV2("/user.slice", {{"user.slice", "max 100000"}});
  EXPECT_EQ(CgroupCpuQuota(v2->files()), std::nullopt);
  FakeCgroups nothing("garbage without colons\n");
  EXPECT_EQ(CgroupCpuQuota(nothing.files()), std::nullopt);
  EXPECT_EQ(CgroupCpuQuota({"/nonexistent/cgroup", "/nonexistent/root"}), std::nullopt);
}

TEST(CpuBudgetTest, CgroupV1ReadsTheCfsQuotaOfTheCpuController) {
  FakeCgroups cg("12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n");
  cg.Put("cg/cpu,cpuacct/cpu.cfs_quota_us", "-1\n");
  cg.Put("cg/cpu,cpuacct/cpu.cfs_period_us", "100000\n");
  cg.Put("cg/cpu,cpuacct/docker/abc/cpu.cfs_quota_us", "300000\n");
  cg.Put("cg/cpu,cpuacct/docker/abc/cpu.cfs_period_us", "100000\n");
  EXPECT_THAT(CgroupCpuQuota(cg.files()), Optional(3.0));
}

TEST(CpuBudgetTest, QuotaCapsTheAffinityRoundedUp) {
  const int affinity = AffinityCpus();
  ASSERT_GE(affinity, 1);
  EXPECT_EQ(AvailableCpus({"/nonexistent/cgroup", "/nonexistent/root"}), affinity);

  EXPECT_EQ(AvailableCpus(CgroupV2("/", {{"", "50000 100000"}})->files()), 1);  // never 0
  // 64 CPUs of quota: the affinity mask decides.
  EXPECT_EQ(AvailableCpus(CgroupV2("/", {{"", "6400000 100000"}})->files()), affinity);
  if (affinity >= 2) {
    EXPECT_EQ(AvailableCpus(CgroupV2("/", {{"", "150000 100000"}})->files()), 2);
  }
}

TEST(CpuBudgetTest, ServerUnderTasksetDefaultsToOneWorkerPerAllowedCore) {
  const absl::StatusOr<std::string> taskset = FindProgram("taskset");
  if (!taskset.ok()) GTEST_SKIP() << "no taskset: " << taskset.status();
  // The first core this test may run on (a CI container may not own core 0).
  cpu_set_t allowed;
  ASSERT_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
  int core = 0;
  while (core < CPU_SETSIZE && !CPU_ISSET(core, &allowed)) ++core;
  ASSERT_LT(core, CPU_SETSIZE);
  TempDir dir;
  dir.Write("town.wmesh", Town().bytes);
  const absl::StatusOr<int> port = PickFreeLoopbackPort();
  ASSERT_TRUE(port.ok()) << port.status();
  auto server = ChildProcess::Start(
      {*taskset, "-c", absl::StrCat(core), WAYMESH_SERVER_BIN, "--maps-dir=" + dir.path(),
       "--listen-address=127.0.0.1", absl::StrCat("--port=", *port), "--metrics-port=-1"},
      dir.path() + "/server.log");
  ASSERT_TRUE(server.ok()) << server.status();
  std::string log;
  for (int i = 0; i < 300 && (*server)->Running(); ++i) {
    log = (*server)->Log();
    if (log.find("worker(s)") != std::string::npos) break;
    absl::SleepFor(absl::Milliseconds(100));
  }
  // One allowed core: one worker, and the default queue of 16 calls per worker.
  EXPECT_THAT(log, HasSubstr(", 1 query worker(s), queue of 16 calls")) << log;
  EXPECT_EQ((*server)->Stop(), 0) << (*server)->Log();
}

}  // namespace
}  // namespace waymesh::testing
