#pragma once
// Read-only views of live crowd sessions for the map viewer (docs/viewer.md): after a tick, a
// session publishes an immutable CrowdSnapshot to its CrowdFeed, and readers take it by
// shared_ptr without ever blocking the tick (the feed's lock guards a pointer swap and the
// listener list, nothing longer). A session copies its agents only when someone reads: a
// subscriber is listening, or a reader asked for the crowd as of now (RequestSnapshot).
//
// A feed outlives its session (readers hold it); End() marks the session gone and tells every
// listener so.

#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "waymesh/core/crowd/crowd.h"

namespace waymesh::server {

// What a session is, fixed when it opens.
struct CrowdFeedInfo {
  uint64_t session = 0;  // the replica's number for it, 1, 2, ...
  std::string map_id;
  std::string agent_type;
  float tick_hz = 0;  // 0: the caller steps the crowd
};

// The crowd of one session as of one tick. Immutable once published.
struct CrowdSnapshot {
  CrowdFeedInfo info;
  uint64_t map_version = 0;
  uint64_t tick = 0;                       // ticks the session has run (0: none yet)
  double time_seconds = 0;                 // crowd time: the sum of the ticks' dt
  std::vector<crowd::AgentUpdate> agents;  // every agent, in id order
};

class CrowdFeed {
 public:
  // Called with each snapshot published, and once with null when the session ends; returns
  // false to unsubscribe. Runs on the publishing thread (a worker) with the feed's lock held:
  // it must be quick and must not call the feed.
  using Listener = std::function<bool(const std::shared_ptr<const CrowdSnapshot>& snapshot)>;

  explicit CrowdFeed(CrowdFeedInfo info);
  CrowdFeed(const CrowdFeed&) = delete;
  CrowdFeed& operator=(const CrowdFeed&) = delete;

  const CrowdFeedInfo& info() const { return info_; }

  // --- The session's side (its task: one thread at a time) ---
  // True when the next tick should publish a snapshot (someone listens). Lock-free.
  bool wanted() const { return listeners_count_.load(std::memory_order_acquire) > 0; }
  // Records where the session is (cheap: for listings, even when nothing is published).
  void NoteState(uint64_t ticks, uint32_t agent_count, uint64_t map_version);
  // Makes `snapshot` the latest and hands it to every listener.
  void Publish(std::shared_ptr<const CrowdSnapshot> snapshot);
  // The session is gone: listeners get null and are dropped; Subscribe fails from now on.
  void End();

  // --- Readers (any thread) ---
  // The last snapshot published, or null.
  std::shared_ptr<const CrowdSnapshot> latest() const;
  // Adds a listener; nullopt (and the listener is dropped uncalled) when the session ended.
  std::optional<uint64_t> Subscribe(Listener listener);
  // Drops a listener; after it returns, the listener is not running and never runs again.
  void Unsubscribe(uint64_t id);
  bool ended() const;
  uint64_t ticks() const { return ticks_.load(std::memory_order_relaxed); }
  uint32_t agent_count() const { return agent_count_.load(std::memory_order_relaxed); }
  uint64_t map_version() const { return map_version_.load(std::memory_order_relaxed); }

 private:
  const CrowdFeedInfo info_;
  std::atomic<uint64_t> ticks_{0};
  std::atomic<uint32_t> agent_count_{0};
  std::atomic<uint64_t> map_version_{0};
  std::atomic<int> listeners_count_{0};
  mutable std::mutex mu_;
  std::shared_ptr<const CrowdSnapshot> latest_;
  std::map<uint64_t, Listener> listeners_;
  uint64_t next_listener_ = 1;
  bool ended_ = false;
};

}  // namespace waymesh::server
