// The bounded pool: every accepted task runs exactly once on a worker, a full queue refuses at
// once, Stop() drains what was queued, and each worker keeps its own state.

#include "waymesh/server/worker_pool.h"

#include <atomic>
#include <chrono>
#include <future>
#include <set>
#include <thread>
#include <vector>

#include "gtest/gtest.h"

namespace waymesh::server {
namespace {

// A gate tasks wait on until the test opens it (bounded, so a bug cannot hang the suite).
class Gate {
 public:
  void Open() {
    std::lock_guard<std::mutex> lock(mu_);
    open_ = true;
    cv_.notify_all();
  }
  bool Wait() {
    std::unique_lock<std::mutex> lock(mu_);
    return cv_.wait_for(lock, std::chrono::seconds(20), [this] { return open_; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  bool open_ = false;
};

TEST(WorkerPoolTest, FullQueueRefusesAtOnceAndStopDrains) {
  std::atomic<int64_t> last_depth{-1};
  WorkerPoolOptions options;
  options.workers = 2;
  options.queue_capacity = 3;
  options.on_queue_depth = [&](int64_t d) { last_depth = d; };
  WorkerPool pool(options);
  Gate gate;
  std::atomic<int> started{0};
  std::atomic<int> ran{0};
  auto blocking = [&](WorkerState&) {
    ++started;
    gate.Wait();
    ++ran;
  };
  // Two tasks occupy both workers...
  ASSERT_TRUE(pool.TrySubmit(blocking));
  ASSERT_TRUE(pool.TrySubmit(blocking));
  for (int i = 0; i < 2000 && started < 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(started, 2);
  // ...three more fill the queue, the sixth is refused without waiting.
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(pool.TrySubmit(blocking)) << i;
  EXPECT_EQ(pool.queue_depth(), 3);
  EXPECT_EQ(last_depth, 3);
  const auto before = std::chrono::steady_clock::now();
  EXPECT_FALSE(pool.TrySubmit(blocking));
  EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(1));

  gate.Open();
  pool.Stop();
  EXPECT_EQ(ran, 5);  // every accepted task ran, the refused one never did
  EXPECT_EQ(pool.queue_depth(), 0);
  EXPECT_EQ(last_depth, 0);
  EXPECT_FALSE(pool.TrySubmit(blocking));  // stopped
}

TEST(WorkerPoolTest, EachWorkerHasItsOwnState) {
  WorkerPoolOptions options;
  options.workers = 3;
  options.queue_capacity = 64;
  WorkerPool pool(options);
  std::mutex mu;
  std::set<const WorkerState*> states;
  std::set<std::thread::id> threads;
  std::atomic<int> done{0};
  for (int i = 0; i < 60; ++i) {
    ASSERT_TRUE(pool.TrySubmit([&](WorkerState& w) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      std::lock_guard<std::mutex> lock(mu);
      states.insert(&w);
      threads.insert(std::this_thread::get_id());
      ++done;
    }));
  }
  pool.Stop();
  EXPECT_EQ(done, 60);
  EXPECT_EQ(states.size(), threads.size());
  EXPECT_LE(threads.size(), 3u);
  EXPECT_EQ(pool.workers(), 3);
}

}  // namespace
}  // namespace waymesh::server
