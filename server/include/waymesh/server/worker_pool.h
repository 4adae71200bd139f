#pragma once
// The bounded pool that runs every query: a fixed number of worker threads fed from one FIFO
// queue of fixed capacity. Admission control is TrySubmit: a full queue refuses at once (the
// service answers RESOURCE_EXHAUSTED) instead of letting latency grow without bound. Each
// worker owns a WorkerState, so a query object is never shared between threads.
//
// With overload shedding on, once the queue overflows the pool sheds load for a while
// (OverloadDetector): it runs one worker fewer (at least one) and queues at most
// kOverloadQueuePerWorker calls per running worker, so that gRPC's own threads keep the CPU
// they need to refuse the excess quickly.
//
// std::mutex / std::condition_variable rather than absl::Mutex: Debian's abseil is built
// without ThreadSanitizer annotations, and the concurrency tests run under TSan.

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/functional/any_invocable.h"
#include "waymesh/core/nav_query.h"
#include "waymesh/server/overload_detector.h"
#include "waymesh/server/worker_state.h"

namespace waymesh::server {

struct WorkerPoolOptions {
  int workers = 1;          // threads, >= 1
  int queue_capacity = 64;  // tasks waiting beyond the running ones, >= 1
  NavQueryOptions query;    // for every NavQuery the workers build
  // Called (from any thread) with the new number of waiting tasks after each change.
  std::function<void(int64_t)> on_queue_depth;
  bool overload_shedding = false;  // see the top of this file
  OverloadOptions overload;
  // Called (from any thread) when an overload episode starts (true) or ends (false).
  std::function<void(bool)> on_overload;
};

// What TrySubmit did with a task; everything but kQueued is a refusal, and says why.
enum class Admission {
  kQueued,     // it will run
  kQueueFull,  // every worker is busy and the queue is full
  kShedding,   // an overload episode is going on and the shedding limits are reached
  kStopping,   // the pool is stopping
};

class WorkerPool {
 public:
  // Runs on a worker thread with that worker's private state.
  using Task = absl::AnyInvocable<void(WorkerState&) &&>;

  // Threads start only in Start(), so that the owner can first build everything its tasks
  // read: a thread started earlier would read that state without a happens-before edge.
  explicit WorkerPool(WorkerPoolOptions options);
  // Stop()s.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Queues `task`, or refuses it at once when the queue is full or the pool is stopping (the
  // task is then destroyed without running: the caller answers the call itself, and the
  // result says why, without another look at the pool's lock).
  Admission TrySubmit(Task task);
  // Starts the worker threads (once; later calls do nothing). Tasks queued before wait for it.
  void Start();
  // Refuses new tasks, runs every task already queued (starting the threads if Start() was
  // never called), joins the threads. Idempotent.
  void Stop();

  // Tasks waiting (not yet picked up by a worker).
  int64_t queue_depth() const;
  int workers() const { return static_cast<int>(worker_count_); }
  int queue_capacity() const { return options_.queue_capacity; }
  // Whether an overload episode is going on (always false with overload shedding off).
  bool overloaded() const;

  // While shedding: queued calls allowed per running worker.
  static constexpr int kOverloadQueuePerWorker = 2;

 private:
  void Run(int worker);
  // Workers allowed to run tasks and tasks allowed to wait, now (mu_ held).
  size_t RunningLimit() const;
  size_t QueueLimit() const;
  // Workers that run while shedding: one fewer, at least one.
  size_t SheddingWorkers() const;
  // Queues `task` if the limits at `now` allow (mu_ held); updates shedding_ and the detector.
  Admission Admit(Task& task, absl::Time now);

  const WorkerPoolOptions options_;
  const size_t worker_count_;  // threads_.size() once started; workers read this, never threads_
  mutable std::mutex mu_;
  std::condition_variable ready_;
  std::vector<Task> ring_;  // fixed capacity; [head_, head_ + size_) modulo capacity
  size_t head_ = 0;
  size_t size_ = 0;
  bool stopping_ = false;
  size_t running_ = 0;         // tasks being run
  bool shedding_ = false;      // the detector's verdict at the last arrival
  OverloadDetector detector_;  // guarded by mu_
  std::vector<std::thread> threads_;
};

}  // namespace waymesh::server
