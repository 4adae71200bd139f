// The metrics port of the real waymesh-server binary under HTTP abuse: a 300 MB POST, slow
// (slowloris) clients, thousands of idle connections. /healthz must keep answering at once and
// the server's memory and descriptors must stay flat, read from /proc.

#include <sys/resource.h>

#include <filesystem>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "gtest/gtest.h"
#include "raw_http.h"
#include "server_process.h"
#include "support/demo_town.h"

namespace waymesh::testing {
namespace {

// Growth of the server's resident memory that counts as "flat": allocator slack and a few
// buffers, nothing proportional to what the clients sent.
constexpr uint64_t kFlatRssBytes = 16 << 20;
constexpr uint64_t kPostBytes = 300ull << 20;
// Idle connections the flood opens (fewer when the descriptor limit is lower).
constexpr int kIdleFlood = 3000;
// The server's connection cap (HttpLimits::max_connections) and what else it may hold open.
constexpr int kConnectionCap = 64;
constexpr int kOtherDescriptors = 64;

class HttpAbuseTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string maps = work_.path() + "/maps";
    std::filesystem::create_directories(maps);
    auto server = ServerProcess::Start(maps, work_.path(), {"--log-level=warn"});
    ASSERT_TRUE(server.ok()) << server.status();
    server_ = *std::move(server);
  }

  // GET /healthz on a fresh connection answers 200 within a second.
  bool HealthzAnswers() {
    absl::StatusOr<RawConnection> c = RawConnection::Open(server_->metrics_port());
    if (!c.ok() || !c->Send(GetRequest("/healthz"))) return false;
    absl::StatusOr<int> status = c->ReadStatus(absl::Seconds(1));
    return status.ok() && *status == 200;
  }

  TempDir work_;
  std::unique_ptr<ServerProcess> server_;
};

TEST_F(HttpAbuseTest, A300MegabytePostIsRefusedAndMemoryStaysFlat) {
  ASSERT_TRUE(HealthzAnswers());
  const uint64_t rss_before = server_->RssBytes();
  ASSERT_GT(rss_before, 0u);
  auto c = RawConnection::Open(server_->metrics_port());
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_TRUE(c->Send(absl::StrCat(
      "POST /metrics HTTP/1.1\r\nHost: t\r\nContent-Length: ", kPostBytes, "\r\n\r\n")));
  absl::StatusOr<int> status = c->ReadStatus(absl::Seconds(5));
  ASSERT_TRUE(status.ok()) << status.status();
  EXPECT_EQ(*status, 413);
  // The client sends the body anyway, until the server closes.
  const std::string megabyte(1 << 20, 'p');
  uint64_t sent = 0;
  while (sent < kPostBytes && c->Send(megabyte)) sent += megabyte.size();
  EXPECT_LT(sent, kPostBytes) << "the server read all of it";
  EXPECT_TRUE(HealthzAnswers());
  EXPECT_LT(server_->RssBytes(), rss_before + kFlatRssBytes)
      << "RSS " << rss_before << " -> " << server_->RssBytes();
}

TEST_F(HttpAbuseTest, SlowClientsDoNotStarveHealthz) {
  // Each slowloris connection sends a header line a byte at a time and never finishes.
  std::vector<RawConnection> slow;
  for (int i = 0; i < 8; ++i) {
    auto c = RawConnection::Open(server_->metrics_port());
    ASSERT_TRUE(c.ok()) << c.status();
    ASSERT_TRUE(c->Send("GET /healthz HTTP/1.1\r\nX-Slow: "));
    slow.push_back(*std::move(c));
  }
  for (int round = 0; round < 10; ++round) {
    for (RawConnection& c : slow) (void)c.Send("a");
    EXPECT_TRUE(HealthzAnswers()) << "round " << round;
    absl::SleepFor(absl::Milliseconds(100));
  }
}

TEST_F(HttpAbuseTest, AFloodOfIdleConnectionsHoldsNeitherDescriptorsNorHealthz) {
  // Room for the flood in this process's descriptor limit.
  rlimit limit;
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
  limit.rlim_cur = limit.rlim_max;
  (void)setrlimit(RLIMIT_NOFILE, &limit);
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &limit), 0);
  const int flood = std::min<int>(kIdleFlood, int(limit.rlim_cur) - 256);
  ASSERT_GT(flood, 2 * kConnectionCap) << "descriptor limit too low for the test";

  const int descriptors_before = server_->OpenDescriptors();
  const uint64_t rss_before = server_->RssBytes();
  std::vector<RawConnection> idle;
  idle.reserve(flood);
  for (int i = 0; i < flood; ++i) {
    auto c = RawConnection::Open(server_->metrics_port());
    ASSERT_TRUE(c.ok()) << "connection " << i << ": " << c.status();
    idle.push_back(*std::move(c));
  }
  EXPECT_TRUE(HealthzAnswers());
  EXPECT_LE(server_->OpenDescriptors(), descriptors_before + kConnectionCap + kOtherDescriptors);
  EXPECT_LT(server_->RssBytes(), rss_before + kFlatRssBytes);
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(HealthzAnswers()) << i;
}

}  // namespace
}  // namespace waymesh::testing
