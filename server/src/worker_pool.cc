#include "waymesh/server/worker_pool.h"

#include <algorithm>
#include <utility>

namespace waymesh::server {

WorkerPool::WorkerPool(WorkerPoolOptions options) : options_(std::move(options)) {
  ring_.resize(static_cast<size_t>(std::max(1, options_.queue_capacity)));
  const int n = std::max(1, options_.workers);
  threads_.reserve(n);
  for (int i = 0; i < n; ++i) threads_.emplace_back([this, i] { Run(i); });
}

WorkerPool::~WorkerPool() { Stop(); }

bool WorkerPool::TrySubmit(Task task) {
  int64_t depth;
  {
    std::lock_guard<std::mutex> lock(mu_);
    if (stopping_ || size_ == ring_.size()) return false;
    ring_[(head_ + size_) % ring_.size()] = std::move(task);
    depth = static_cast<int64_t>(++size_);
  }
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

void WorkerPool::Run(int /*worker*/) {
  WorkerState state(options_.query);
  for (;;) {
    Task task;
    int64_t depth;
    {
      std::unique_lock<std::mutex> lock(mu_);
      ready_.wait(lock, [this] { return size_ > 0 || stopping_; });
      // Stopping still drains: every queued call must be answered.
      if (size_ == 0) return;
      task = std::move(ring_[head_]);
      ring_[head_] = nullptr;
      head_ = (head_ + 1) % ring_.size();
      depth = static_cast<int64_t>(--size_);
    }
    if (options_.on_queue_depth) options_.on_queue_depth(depth);
    std::move(task)(state);
  }
}

}  // namespace waymesh::server
