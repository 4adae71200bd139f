#include "crowd_snapshot.h"

#include <utility>

namespace waymesh::server {

CrowdFeed::CrowdFeed(CrowdFeedInfo info) : info_(std::move(info)) {}

void CrowdFeed::NoteState(uint64_t ticks, uint32_t agent_count, uint64_t map_version) {
  ticks_.store(ticks, std::memory_order_relaxed);
  agent_count_.store(agent_count, std::memory_order_relaxed);
  map_version_.store(map_version, std::memory_order_relaxed);
}

void CrowdFeed::Publish(std::shared_ptr<const CrowdSnapshot> snapshot) {
  std::lock_guard<std::mutex> lock(mu_);
  if (ended_) return;
  latest_ = std::move(snapshot);
  // Listeners run under the lock so that Unsubscribe can promise none runs after it returns.
  for (auto it = listeners_.begin(); it != listeners_.end();) {
    if (it->second(latest_)) {
      ++it;
    } else {
      it = listeners_.erase(it);
    }
  }
  listeners_count_.store(static_cast<int>(listeners_.size()), std::memory_order_release);
}

void CrowdFeed::End() {
  std::lock_guard<std::mutex> lock(mu_);
  if (ended_) return;
  ended_ = true;
  for (auto& [id, listener] : listeners_) listener(nullptr);
  listeners_.clear();
  listeners_count_.store(0, std::memory_order_release);
}

std::shared_ptr<const CrowdSnapshot> CrowdFeed::latest() const {
  std::lock_guard<std::mutex> lock(mu_);
  return latest_;
}

std::optional<uint64_t> CrowdFeed::Subscribe(Listener listener) {
  std::lock_guard<std::mutex> lock(mu_);
  if (ended_) return std::nullopt;
  const uint64_t id = next_listener_++;
  listeners_.emplace(id, std::move(listener));
  listeners_count_.store(static_cast<int>(listeners_.size()), std::memory_order_release);
  return id;
}

void CrowdFeed::Unsubscribe(uint64_t id) {
  Listener dropped;  // destroyed after the lock: it may hold an HTTP connection
  {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = listeners_.find(id);
    if (it == listeners_.end()) return;
    dropped = std::move(it->second);
    listeners_.erase(it);
    listeners_count_.store(static_cast<int>(listeners_.size()), std::memory_order_release);
  }
}

bool CrowdFeed::ended() const {
  std::lock_guard<std::mutex> lock(mu_);
  return ended_;
}

}  // namespace waymesh::server
