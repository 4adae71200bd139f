// Fault injection against the real waymesh-server binary: while clients call FindPath and
// GetMapInfo on map "town" over TCP, its file is changed in every way issue 26's adversarial run
// found (and the atomic renames that were always safe): edits in place, a slow write,
// truncation, a bit flip, deletion, a directory or FIFO in its place, then restored. No call may
// fail; the server ends up serving the complete valid file (or keeps the old map when the new
// bytes are bad) and still stops promptly on SIGTERM. Tiles are paged through a small cache,
// so they are read from the map while the faults happen.

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <functional>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "background_callers.h"
#include "gtest/gtest.h"
#include "server_process.h"
#include "support/demo_town.h"
#include "test_server.h"

namespace waymesh::testing {
namespace {

// The server polls often and settles fast, so each case takes about two seconds.
const std::vector<std::string> kFaultFlags = {"--reload-interval=50ms", "--reload-settle=250ms",
                                              "--map-removal-grace=30s", "--tile-cache-bytes=65536",
                                              "--log-level=warn"};
// Long enough for several polls, a settle and a reload.
constexpr absl::Duration kLetItWork = absl::Milliseconds(900);
constexpr int kCallsBetweenSteps = 40;

// The two maps the cases write: the 200 m town with two seeds. Built on first use, not while
// gtest registers the table: every test process registers it, and building a map there cost
// each server test seconds under TSan.
constexpr uint32_t kFirstSeed = 7;
constexpr uint32_t kSecondSeed = 8;
const std::string& First() { return Town(200, kFirstSeed).bytes; }
const std::string& Second() { return Town(200, kSecondSeed).bytes; }

// Truncates `path` and writes `bytes` into it (same inode, as cp does), `chunk` bytes at a
// time with `pause` between chunks.
void WriteInPlace(const std::string& path, const std::string& bytes, size_t chunk = 0,
                  absl::Duration pause = absl::ZeroDuration()) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  ASSERT_GE(fd, 0) << path;
  if (chunk == 0) chunk = bytes.size();
  for (size_t at = 0; at < bytes.size(); at += chunk) {
    const size_t n = std::min(chunk, bytes.size() - at);
    ASSERT_EQ(::pwrite(fd, bytes.data() + at, n, off_t(at)), ssize_t(n));
    absl::SleepFor(pause);
  }
  ::close(fd);
}

// Writes `bytes` under a temporary name and renames it over `path` (atomic replacement).
void RenameInto(const std::string& path, const std::string& bytes) {
  const std::string temp = path + ".part";
  WriteInPlace(temp, bytes);
  ASSERT_EQ(std::rename(temp.c_str(), path.c_str()), 0);
}

std::vector<std::string> CorruptVariants(const std::string& good) {
  std::string flipped = good, version = good;
  flipped[good.size() / 2] ^= 0x10;
  version[8] = 0x7f;
  std::string garbage(good.size(), '\0');
  for (size_t i = 0; i < garbage.size(); ++i) garbage[i] = char(i * 2654435761u >> 13);
  return {flipped, good.substr(0, good.size() / 2), "", version, garbage};
}

// One row of the table: what happens to the file, what restores it (may be empty), and which
// map must be served at the end.
struct FaultCase {
  std::string name;
  std::function<void(const std::string& path)> fault;
  std::function<void(const std::string& path)> restore;
  uint32_t served_seed;  // kFirstSeed or kSecondSeed
};

void PrintTo(const FaultCase& c, std::ostream* os) { *os << c.name; }

std::vector<FaultCase> Cases() {
  return {
      {"RenameCorruptFiles",
       [](const std::string& path) {
         for (const std::string& bad : CorruptVariants(First())) {
           RenameInto(path, bad);
           absl::SleepFor(absl::Milliseconds(150));
         }
       },
       [](const std::string& path) { RenameInto(path, First()); }, kFirstSeed},
      {"RenameValidMapsFlapping",
       [](const std::string& path) {
         for (int i = 0; i < 31; ++i) {  // ends on the second map
           RenameInto(path, i % 2 == 0 ? Second() : First());
           absl::SleepFor(absl::Milliseconds(50));
         }
       },
       nullptr, kSecondSeed},
      {"OverwriteInPlaceSameContent", [](const std::string& path) { WriteInPlace(path, First()); },
       nullptr, kFirstSeed},
      {"OverwriteInPlaceDifferentMap",
       [](const std::string& path) { WriteInPlace(path, Second()); }, nullptr, kSecondSeed},
      {"SlowWriteInPlace",
       [](const std::string& path) {
         WriteInPlace(path, Second(), 64 << 10, absl::Milliseconds(50));
       },
       nullptr, kSecondSeed},
      {"TruncateInPlaceThenReplace",
       [](const std::string& path) { ASSERT_EQ(::truncate(path.c_str(), 1000), 0); },
       [](const std::string& path) { RenameInto(path, First()); }, kFirstSeed},
      {"BitFlipInPlace",
       [](const std::string& path) {
         const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
         ASSERT_GE(fd, 0);
         const size_t at = First().size() * 2 / 3;  // inside a tile
         const char flipped = char(First()[at] ^ 0x01);
         ASSERT_EQ(::pwrite(fd, &flipped, 1, off_t(at)), 1);
         ::close(fd);
       },
       nullptr, kFirstSeed},  // the damaged file is refused; the loaded map serves on
      {"DeleteThenRestore", [](const std::string& path) { ASSERT_EQ(::unlink(path.c_str()), 0); },
       [](const std::string& path) { WriteInPlace(path, First()); }, kFirstSeed},
      {"DirectoryInPlaceThenRestore",
       [](const std::string& path) {
         ASSERT_EQ(::unlink(path.c_str()), 0);
         ASSERT_EQ(::mkdir(path.c_str(), 0755), 0);
       },
       [](const std::string& path) {
         ASSERT_EQ(::rmdir(path.c_str()), 0);
         WriteInPlace(path, First());
       },
       kFirstSeed},
      {"FifoRenamedOverThenRestore",
       [](const std::string& path) {
         const std::string fifo = path + ".fifo";
         ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0);
         ASSERT_EQ(std::rename(fifo.c_str(), path.c_str()), 0);
       },
       [](const std::string& path) { RenameInto(path, Second()); }, kSecondSeed},
  };
}

// The source hash of the map "town" the server serves, or the error.
std::string ServedHash(const std::string& target) {
  auto stub = v1::NavigationService::NewStub(
      grpc::CreateChannel(target, grpc::InsecureChannelCredentials()));
  grpc::ClientContext ctx;
  SetDeadline(&ctx, absl::Seconds(5));
  v1::GetMapInfoRequest request;
  request.set_map_id("town");
  v1::GetMapInfoResponse info;
  const grpc::Status status = stub->GetMapInfo(&ctx, request, &info);
  return status.ok() ? info.map().source_hash() : "error: " + status.error_message();
}

class MapFileFaultTest : public ::testing::TestWithParam<FaultCase> {};

TEST_P(MapFileFaultTest, NoCallFailsAndTheCompleteValidFileIsServed) {
  const FaultCase& c = GetParam();
  TempDir work;
  const std::string maps = work.path() + "/maps";
  std::filesystem::create_directories(maps);
  const std::string path = maps + "/town.wmesh";
  WriteInPlace(path, First());
  auto server = ServerProcess::Start(maps, work.path(), kFaultFlags);
  ASSERT_TRUE(server.ok()) << server.status();

  BackgroundCallers callers((*server)->target(), 2);
  ASSERT_TRUE(callers.WaitCalls(kCallsBetweenSteps));
  c.fault(path);
  absl::SleepFor(kLetItWork);
  ASSERT_TRUE(callers.WaitCalls(kCallsBetweenSteps));
  if (c.restore) {
    c.restore(path);
    absl::SleepFor(kLetItWork);
    ASSERT_TRUE(callers.WaitCalls(kCallsBetweenSteps));
  }
  callers.Stop();
  EXPECT_EQ(callers.failures(), 0)
      << "of " << callers.calls() << " calls: " << callers.failure_sample() << "\n"
      << (*server)->process().Log();

  const std::string want = Town(200, c.served_seed).map->info().source_hash;
  std::string served = ServedHash((*server)->target());
  // A reload takes a map load: under TSan on a busy 2-core machine, several seconds.
  for (int i = 0; i < 200 && served != want; ++i) {
    absl::SleepFor(absl::Milliseconds(100));
    served = ServedHash((*server)->target());
  }
  EXPECT_EQ(served, want) << (*server)->process().Log();

  // Nothing the file went through holds up shutdown: the server exits by itself (0) well
  // within the grace it is given (a hang is killed and exits non-zero).
  EXPECT_EQ((*server)->process().Stop(absl::Seconds(20)), 0) << (*server)->process().Log();
}

INSTANTIATE_TEST_SUITE_P(IssueTable, MapFileFaultTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<FaultCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace waymesh::testing
