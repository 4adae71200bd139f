#pragma once
// The crowd sessions a replica holds: the --max-crowd-sessions limit, the ticker that steps the
// server-ticked sessions at their rates, and the drain that ends them all.
//
// Lock order: the registry's lock, then a session's. A session never calls the registry while
// it holds its own lock; the ticker calls RequestTick under the registry's lock (it never ends
// a stream), so a session that Remove()s itself is never ticked again once Remove returns.

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "crowd_snapshot.h"
#include "waymesh/server/crowd_metrics.h"

namespace waymesh::server {

class CrowdSession;

class CrowdSessions {
 public:
  CrowdSessions(uint32_t max_sessions, CrowdMetrics* metrics);
  // Stops the ticker. Every session must have been removed.
  ~CrowdSessions();
  CrowdSessions(const CrowdSessions&) = delete;
  CrowdSessions& operator=(const CrowdSessions&) = delete;

  // Counts `session` against the limit (RESOURCE_EXHAUSTED naming --max-crowd-sessions when
  // the replica is full) and, with `tick_period` > 0, ticks it at that period from now on.
  // Returns the session's feed (its number filled in), which it publishes snapshots to.
  absl::StatusOr<std::shared_ptr<CrowdFeed>> Add(CrowdSession* session, absl::Duration tick_period,
                                                 CrowdFeedInfo info);
  // Forgets `session` (no error when it was never added) and ends its feed.
  void Remove(CrowdSession* session);
  // The feeds of the live sessions, by session number.
  std::vector<std::shared_ptr<CrowdFeed>> Feeds() const;
  // The feed of live session `number`; null when there is none.
  std::shared_ptr<CrowdFeed> Find(uint64_t number) const;
  // Asks session `number` to publish its crowd as of now (besides its ticks). NotFound when no
  // such session is live, Unavailable when it cannot run a task now (the worker queue is full).
  absl::Status RequestSnapshot(uint64_t number);
  // Ends every session with `status` (the server drains); new ones are refused from now on.
  void EndAll(const absl::Status& status);
  size_t size() const;

 private:
  struct Ticking {
    absl::Duration period;  // zero: the caller steps this session
    absl::Time next;
    std::shared_ptr<CrowdFeed> feed;
  };
  void RunTicker();
  // The live session `number` (mu_ held); end() when there is none.
  absl::flat_hash_map<CrowdSession*, Ticking>::const_iterator FindLocked(uint64_t number) const;
  // The earliest tick due (mu_ held); InfiniteFuture when no session ticks.
  absl::Time NextDue() const;

  const uint32_t max_sessions_;
  CrowdMetrics* metrics_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;
  absl::Status refusing_;  // set by EndAll
  absl::flat_hash_map<CrowdSession*, Ticking> sessions_;
  uint64_t next_number_ = 1;
  std::thread ticker_;  // started with the first server-ticked session
};

}  // namespace waymesh::server
