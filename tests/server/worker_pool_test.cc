// The bounded pool: every accepted task runs exactly once on a worker, a full queue refuses at
// once, Stop() drains what was queued, each worker keeps its own state, and in overload the pool
// runs one worker fewer with a short queue.

#include "waymesh/server/worker_pool.h"

#include <algorithm>
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
  pool.Start();
  Gate gate;
  std::atomic<int> started{0};
  std::atomic<int> ran{0};
  auto blocking = [&](WorkerState&) {
    ++started;
    gate.Wait();
    ++ran;
  };
  // Two tasks occupy both workers...
  ASSERT_EQ(pool.TrySubmit(blocking), Admission::kQueued);
  ASSERT_EQ(pool.TrySubmit(blocking), Admission::kQueued);
  for (int i = 0; i < 2000 && started < 2; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ASSERT_EQ(started, 2);
  // ...three more fill the queue, the sixth is refused without waiting.
  for (int i = 0; i < 3; ++i) ASSERT_EQ(pool.TrySubmit(blocking), Admission::kQueued) << i;
  EXPECT_EQ(pool.queue_depth(), 3);
  EXPECT_EQ(last_depth, 3);
  const auto before = std::chrono::steady_clock::now();
  EXPECT_EQ(pool.TrySubmit(blocking), Admission::kQueueFull);
  EXPECT_LT(std::chrono::steady_clock::now() - before, std::chrono::seconds(1));

  gate.Open();
  pool.Stop();
  EXPECT_EQ(ran, 5);  // every accepted task ran, the refused one never did
  EXPECT_EQ(pool.queue_depth(), 0);
  EXPECT_EQ(last_depth, 0);
  EXPECT_EQ(pool.TrySubmit(blocking), Admission::kStopping);
}

TEST(WorkerPoolTest, EachWorkerHasItsOwnState) {
  WorkerPoolOptions options;
  options.workers = 3;
  options.queue_capacity = 64;
  WorkerPool pool(options);
  pool.Start();
  std::mutex mu;
  std::set<const WorkerState*> states;
  std::set<std::thread::id> threads;
  std::atomic<int> done{0};
  for (int i = 0; i < 60; ++i) {
    ASSERT_EQ(pool.TrySubmit([&](WorkerState& w) {
      std::this_thread::sleep_for(std::chrono::microseconds(200));
      std::lock_guard<std::mutex> lock(mu);
      states.insert(&w);
      threads.insert(std::this_thread::get_id());
      ++done;
    }),
              Admission::kQueued);
  }
  pool.Stop();
  EXPECT_EQ(done, 60);
  EXPECT_EQ(states.size(), threads.size());
  EXPECT_LE(threads.size(), 3u);
  EXPECT_EQ(pool.workers(), 3);
}

// Raises *max to at least v.
void RaiseTo(std::atomic<int>* max, int v) {
  for (int m = max->load(); v > m && !max->compare_exchange_weak(m, v);) {
  }
}

TEST(WorkerPoolTest, OverloadRunsOneWorkerFewerAndShortensTheQueue) {
  std::atomic<int> overload_events{0};
  WorkerPoolOptions options;
  options.workers = 3;
  options.queue_capacity = 64;
  options.overload_shedding = true;
  options.overload.hold = absl::Seconds(2);                   // longer than the test: no probe
  const int limit = 2 * WorkerPool::kOverloadQueuePerWorker;  // 2 running workers
  options.on_overload = [&](bool on) { overload_events += on ? 1 : 0; };
  WorkerPool pool(options);
  pool.Start();

  // A flood while the workers are stuck: three run, 64 queue, and the first refusal starts
  // an overload episode.
  Gate gate;
  std::atomic<int> concurrent{0};
  std::atomic<int> max_concurrent{0};  // among calls that started after the first three
  std::atomic<int> next_id{0};
  auto call = [&](WorkerState&, int id) {
    gate.Wait();
    const int c = ++concurrent;
    if (id >= 3) RaiseTo(&max_concurrent, c);
    std::this_thread::sleep_for(std::chrono::microseconds(300));
    --concurrent;
  };
  auto offer = [&] {
    const int id = next_id++;
    const Admission a = pool.TrySubmit([&call, id](WorkerState& w) { call(w, id); });
    if (a != Admission::kQueued) {
      --next_id;
      EXPECT_EQ(a, pool.overloaded() ? Admission::kShedding : Admission::kQueueFull);
    }
  };
  EXPECT_FALSE(pool.overloaded());
  const auto flood_end = std::chrono::steady_clock::now() + std::chrono::milliseconds(40);
  while (std::chrono::steady_clock::now() < flood_end) offer();
  EXPECT_TRUE(pool.overloaded());
  EXPECT_EQ(overload_events, 1);
  // The queue filled up (a worker still waking when shedding began runs nothing new).
  EXPECT_GE(pool.queue_depth(), 61);

  // Released while the flood goes on: two workers run, at most two calls each wait.
  gate.Open();
  const auto drain_end = std::chrono::steady_clock::now() + std::chrono::milliseconds(150);
  bool drained = false;  // the queue has been down to the overload limit
  int64_t max_depth_after = 0;
  while (std::chrono::steady_clock::now() < drain_end) {
    offer();
    const int64_t depth = pool.queue_depth();
    drained = drained || depth <= limit;
    if (drained) max_depth_after = std::max(max_depth_after, depth);
  }
  EXPECT_TRUE(pool.overloaded());
  EXPECT_TRUE(drained);
  EXPECT_LE(max_depth_after, limit);
  EXPECT_LE(max_concurrent, 2);
  EXPECT_GT(next_id, 67);  // calls were accepted again once the queue was short
  pool.Stop();
}

TEST(WorkerPoolTest, AProbeWithoutOverflowEndsTheEpisode) {
  std::atomic<int> started{0}, ended{0};
  WorkerPoolOptions options;
  options.workers = 2;
  options.queue_capacity = 4;
  options.overload_shedding = true;
  options.overload.hold = absl::Milliseconds(50);
  options.on_overload = [&](bool on) { ++(on ? started : ended); };
  WorkerPool pool(options);
  pool.Start();
  Gate gate;
  auto blocking = [&](WorkerState&) { gate.Wait(); };
  Admission last = Admission::kQueued;
  while (!pool.overloaded()) last = pool.TrySubmit(blocking);  // 2 run, 4 wait, 1 refused
  EXPECT_EQ(last, Admission::kShedding);
  EXPECT_EQ(started, 1);
  gate.Open();
  // Calm calls, one at a time: shedding gives way to a probe after 50 ms, and a probe with no
  // overflow for 50 ms ends the episode.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (pool.overloaded() && std::chrono::steady_clock::now() < deadline) {
    std::promise<void> done;
    if (pool.TrySubmit([&](WorkerState&) { done.set_value(); }) == Admission::kQueued) {
      done.get_future().wait();
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  EXPECT_FALSE(pool.overloaded());
  EXPECT_EQ(started, 1);
  EXPECT_EQ(ended, 1);
  pool.Stop();
}

TEST(WorkerPoolTest, WithoutSheddingThePoolIsNeverOverloaded) {
  WorkerPoolOptions options;
  options.workers = 2;
  options.queue_capacity = 4;
  WorkerPool pool(options);
  pool.Start();
  Gate gate;
  auto blocking = [&](WorkerState&) { gate.Wait(); };
  int queued = 0;
  for (int i = 0; i < 10000; ++i) {
    const Admission a = pool.TrySubmit(blocking);
    if (a == Admission::kQueued) {
      ++queued;
    } else {
      ASSERT_EQ(a, Admission::kQueueFull) << i;
    }
  }
  EXPECT_LE(queued, 6);  // 2 run, 4 wait
  EXPECT_FALSE(pool.overloaded());
  gate.Open();
  pool.Stop();
}

// The server builds its service after the pool and starts the threads last, so that no worker
// runs before the state its tasks read exists; calls that arrive in between wait in the queue.
TEST(WorkerPoolTest, TasksQueuedBeforeStartRunOnceStarted) {
  WorkerPoolOptions options;
  options.workers = 2;
  options.queue_capacity = 4;
  WorkerPool pool(options);
  EXPECT_EQ(pool.workers(), 2);
  std::atomic<int> ran{0};
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(pool.TrySubmit([&](WorkerState&) { ++ran; }), Admission::kQueued);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  EXPECT_EQ(ran, 0);
  EXPECT_EQ(pool.queue_depth(), 3);
  pool.Start();
  pool.Start();  // a second call does nothing
  for (int i = 0; i < 2000 && ran < 3; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(ran, 3);
  pool.Stop();
}

TEST(WorkerPoolTest, StopBeforeStartStillRunsWhatWasQueued) {
  WorkerPoolOptions options;
  options.workers = 1;
  WorkerPool pool(options);
  std::atomic<int> ran{0};
  ASSERT_EQ(pool.TrySubmit([&](WorkerState&) { ++ran; }), Admission::kQueued);
  pool.Stop();
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(pool.TrySubmit([&](WorkerState&) { ++ran; }), Admission::kStopping);
}

}  // namespace
}  // namespace waymesh::server
