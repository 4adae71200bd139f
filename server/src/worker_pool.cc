#include "waymesh/server/worker_pool.h"

#include <algorithm>
#include <utility>

namespace waymesh::server {

WorkerPool::WorkerPool(WorkerPoolOptions options)
    : options_(std::move(options)),
      worker_count_(static_cast<size_t>(std::max(1, options_.workers))),
      detector_(options_.overload) {
  ring_.resize(static_cast<size_t>(std::max(1, options_.queue_capacity)));
}

void WorkerPool::Start() {
  if (!threads_.empty()) return;
  threads_.reserve(worker_count_);
  for (size_t i = 0; i < worker_count_; ++i) {
    threads_.emplace_back([this, i] { Run(static_cast<int>(i)); });
  }
}

WorkerPool::~WorkerPool() { Stop(); }

size_t WorkerPool::SheddingWorkers() const { return std::max<size_t>(1, worker_count_ - 1); }

size_t WorkerPool::RunningLimit() const { return shedding_ ? SheddingWorkers() : worker_count_; }

size_t WorkerPool::QueueLimit() const {
  if (!shedding_) return ring_.size();
  return std::min(ring_.size(), SheddingWorkers() * kOverloadQueuePerWorker);
}

Admission WorkerPool::Admit(Task& task, absl::Time now) {
  if (stopping_) return Admission::kStopping;
  if (options_.overload_shedding) shedding_ = detector_.Shedding(now);
  if (size_ < QueueLimit()) {
    ring_[(head_ + size_) % ring_.size()] = std::move(task);
    ++size_;
    return Admission::kQueued;
  }
  if (options_.overload_shedding && !shedding_) {
    detector_.OnQueueFull(now);  // the normal queue overflowed
    shedding_ = true;
  }
  return shedding_ ? Admission::kShedding : Admission::kQueueFull;
}

Admission WorkerPool::TrySubmit(Task task) {
  const absl::Time now = options_.overload_shedding ? absl::Now() : absl::InfinitePast();
  Admission admission;
  bool released;  // shedding stopped: the idle worker may run again
  bool episode_changed;
  bool overloaded;
  int64_t depth;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const bool was_shedding = shedding_;
    const bool was_overloaded = detector_.overloaded();
    admission = Admit(task, now);
    released = was_shedding && !shedding_;
    overloaded = detector_.overloaded();
    // A probe that ends an episode and overflows in the same call only continues it.
    episode_changed = overloaded != was_overloaded;
    depth = static_cast<int64_t>(size_);
  }
  if (released) ready_.notify_all();
  if (episode_changed && options_.on_overload) options_.on_overload(overloaded);
  if (admission != Admission::kQueued) return admission;
  ready_.notify_one();
  if (options_.on_queue_depth) options_.on_queue_depth(depth);
  return admission;
}

void WorkerPool::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  ready_.notify_all();
  Start();  // a pool stopped before it started still runs what was queued
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

int64_t WorkerPool::queue_depth() const {
  std::lock_guard<std::mutex> lock(mu_);
  return static_cast<int64_t>(size_);
}

bool WorkerPool::overloaded() const {
  std::lock_guard<std::mutex> lock(mu_);
  return detector_.overloaded();
}

void WorkerPool::Run(int /*worker*/) {
  WorkerState state(options_.query);
  for (;;) {
    Task task;
    int64_t depth;
    {
      std::unique_lock<std::mutex> lock(mu_);
      // Stopping still drains, with every worker: every queued call must be answered.
      ready_.wait(lock, [this] { return stopping_ || (size_ > 0 && running_ < RunningLimit()); });
      if (size_ == 0) return;
      task = std::move(ring_[head_]);
      ring_[head_] = nullptr;
      head_ = (head_ + 1) % ring_.size();
      depth = static_cast<int64_t>(--size_);
      ++running_;
    }
    if (options_.on_queue_depth) options_.on_queue_depth(depth);
    std::move(task)(state);
    std::lock_guard<std::mutex> lock(mu_);
    --running_;
  }
}

}  // namespace waymesh::server
