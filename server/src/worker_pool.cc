#include "waymesh/server/worker_pool.h"

#include <algorithm>
#include <utility>

namespace waymesh::server {

WorkerPool::WorkerPool(WorkerPoolOptions options)
    : options_(std::move(options)), detector_(options_.overload) {
  ring_.resize(static_cast<size_t>(std::max(1, options_.queue_capacity)));
  const int n = std::max(1, options_.workers);
  threads_.reserve(n);
  for (int i = 0; i < n; ++i) threads_.emplace_back([this, i] { Run(i); });
}

WorkerPool::~WorkerPool() { Stop(); }

size_t WorkerPool::RunningLimit() const {
  const size_t all = threads_.size();
  return shedding_ && all > 1 ? all - 1 : all;
}

size_t WorkerPool::QueueLimit() const {
  if (!shedding_) return ring_.size();
  const size_t running = std::max<size_t>(1, threads_.size() - 1);
  return std::min(ring_.size(), running * kOverloadQueuePerWorker);
}

bool WorkerPool::Admit(Task& task, OverloadDetector::Event* event) {
  *event = OverloadDetector::Event::kNone;
  if (stopping_) return false;
  absl::Time now;
  if (options_.overload_shedding) {
    now = absl::Now();
    shedding_ = detector_.Shedding(now, event);
  }
  if (size_ < QueueLimit()) {
    ring_[(head_ + size_) % ring_.size()] = std::move(task);
    ++size_;
    return true;
  }
  if (options_.overload_shedding && !shedding_) {
    // The normal queue overflowed. Right as a probe ended the episode, that only continues it.
    OverloadDetector::Event full;
    detector_.OnQueueFull(now, &full);
    *event = *event == OverloadDetector::Event::kEnded ? OverloadDetector::Event::kNone : full;
    shedding_ = true;
  }
  return false;
}

bool WorkerPool::TrySubmit(Task task) {
  bool queued;
  bool released;  // shedding stopped: the idle worker may run again
  OverloadDetector::Event event;
  int64_t depth;
  {
    std::lock_guard<std::mutex> lock(mu_);
    const bool was_shedding = shedding_;
    queued = Admit(task, &event);
    released = was_shedding && !shedding_;
    depth = static_cast<int64_t>(size_);
  }
  if (released) ready_.notify_all();
  if (event != OverloadDetector::Event::kNone && options_.on_overload) {
    options_.on_overload(event == OverloadDetector::Event::kStarted);
  }
  if (!queued) return false;
  ready_.notify_one();
  if (options_.on_queue_depth) options_.on_queue_depth(depth);
  return true;
}

void WorkerPool::Stop() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stopping_ = true;
  }
  ready_.notify_all();
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
