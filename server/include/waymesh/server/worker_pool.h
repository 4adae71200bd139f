#pragma once
// The bounded pool that runs every query: a fixed number of worker threads fed from one FIFO
// queue of fixed capacity. Admission control is TrySubmit: a full queue refuses at once (the
// service answers RESOURCE_EXHAUSTED) instead of letting latency grow without bound. Each
// worker owns a WorkerState, so a query object is never shared between threads.
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
#include "waymesh/server/worker_state.h"

namespace waymesh::server {

struct WorkerPoolOptions {
  int workers = 1;          // threads, >= 1
  int queue_capacity = 64;  // tasks waiting beyond the running ones, >= 1
  NavQueryOptions query;    // for every NavQuery the workers build
  // Called (from any thread) with the new number of waiting tasks after each change.
  std::function<void(int64_t)> on_queue_depth;
};

class WorkerPool {
 public:
  // Runs on a worker thread with that worker's private state.
  using Task = absl::AnyInvocable<void(WorkerState&) &&>;

  // Starts the worker threads.
  explicit WorkerPool(WorkerPoolOptions options);
  // Stop()s.
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  // Queues `task`, or returns false at once when the queue is full or the pool is stopping
  // (the task is then destroyed without running: the caller answers the call itself).
  bool TrySubmit(Task task);
  // Refuses new tasks, runs every task already queued, joins the threads. Idempotent.
  void Stop();

  // Tasks waiting (not yet picked up by a worker).
  int64_t queue_depth() const;
  int workers() const { return static_cast<int>(threads_.size()); }
  int queue_capacity() const { return options_.queue_capacity; }

 private:
  void Run(int worker);

  const WorkerPoolOptions options_;
  mutable std::mutex mu_;
  std::condition_variable ready_;
  std::vector<Task> ring_;  // fixed capacity; [head_, head_ + size_) modulo capacity
  size_t head_ = 0;
  size_t size_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace waymesh::server
