// The heat map's ring of recent FindPath calls: keeps the newest, per map, whole records only.

#include "waymesh/server/path_heat_ring.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

namespace waymesh::server {
namespace {

TEST(PathHeatRingTest, KeepsTheLastCallsOfEachMapOldestFirst) {
  PathHeatRing ring(4);
  for (int i = 0; i < 6; ++i) {
    ring.Record(i % 2 ? "b" : "a", {float(i), 0, 0}, {0, 0, float(i)},
                i == 4 ? QueryStatus::kNoPath : QueryStatus::kComplete);
  }
  EXPECT_EQ(ring.recorded(), 6u);
  // The ring holds calls 2..5: map a has 2 and 4, map b 3 and 5.
  const std::vector<PathHeatPoint> a = ring.Snapshot("a");
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].start.x, 2);
  EXPECT_EQ(a[1].start.x, 4);
  EXPECT_EQ(a[1].end.z, 4);
  EXPECT_EQ(a[1].status, QueryStatus::kNoPath);
  const std::vector<PathHeatPoint> b = ring.Snapshot("b");
  ASSERT_EQ(b.size(), 2u);
  EXPECT_EQ(b[1].start.x, 5);
  EXPECT_TRUE(ring.Snapshot("c").empty());
}

TEST(PathHeatRingTest, ConcurrentWritersNeverShowATornRecord) {
  PathHeatRing ring(64);
  std::atomic<bool> stop{false};
  std::vector<std::thread> writers;
  for (int w = 0; w < 3; ++w) {
    writers.emplace_back([&ring, &stop, w] {
      // Every record has start = end = (v, v, v): a torn one would mix two values.
      for (int v = 0; !stop.load(); ++v) {
        const float f = float(w * 1000000 + v % 1000);
        ring.Record("m", {f, f, f}, {f, f, f}, QueryStatus::kComplete);
      }
    });
  }
  size_t seen = 0;
  // Read while the writers go round the ring many times (and until some record was whole, for
  // at most 10 s: on a loaded machine the writers may get the CPU only late).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (int i = 0; (i < 2000 || seen == 0) && std::chrono::steady_clock::now() < give_up; ++i) {
    for (const PathHeatPoint& p : ring.Snapshot("m")) {
      ASSERT_EQ(p.start.x, p.start.y);
      ASSERT_EQ(p.start.x, p.end.z);
      ++seen;
    }
  }
  stop = true;
  for (std::thread& t : writers) t.join();
  EXPECT_GT(seen, 0u);
}

}  // namespace
}  // namespace waymesh::server
