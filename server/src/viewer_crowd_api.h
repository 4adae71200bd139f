#pragma once
// The live crowd layer of the viewer's JSON API (viewer_api.h; docs/viewer.md), read-only:
//
//   GET /api/crowds                   live sessions: number, map, agents, ticks, tick rate
//   GET /api/crowds/{n}               session n's crowd as of now (its next task publishes it)
//   GET /api/crowds/{n}/events        server-sent events: one `data:` snapshot per tick, a
//                                     comment line as heartbeat, `event: end` when it ends
//
// Streams are capped (429 past max_streams); a reader slower than the ticks misses frames
// (the HttpStream's backlog), it never makes the server buffer without bound or slow a tick.
// Snapshots are serialised once and shared by every stream of a session.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "absl/time/time.h"
#include "crowd_sessions.h"
#include "crowd_snapshot.h"
#include "waymesh/server/http_server.h"

namespace waymesh::server {

struct ViewerCrowdOptions {
  CrowdSessions* sessions = nullptr;  // null: no session is listed
  int max_streams = 8;                // event streams open at once over all sessions
  absl::Duration heartbeat = absl::Seconds(10);
  size_t max_backlog_bytes = 1 << 20;  // per stream: frames sent but not yet read
};

class ViewerCrowdApi {
 public:
  explicit ViewerCrowdApi(ViewerCrowdOptions options);
  // Close()s.
  ~ViewerCrowdApi();
  ViewerCrowdApi(const ViewerCrowdApi&) = delete;
  ViewerCrowdApi& operator=(const ViewerCrowdApi&) = delete;

  // "/api/crowds" and the prefix route "/api/crowds/"; they use this object, and check no
  // token (the caller guards them).
  std::map<std::string, HttpRoute> Routes();
  // Stops listening to every session: pending answers and streams are dropped (their
  // connections are the HTTP server's to close). After it returns no listener of this object
  // runs.
  void Close();
  // Event streams open now.
  int open_streams() const;

 private:
  // A listener this object holds on a feed.
  struct Subscription {
    std::weak_ptr<CrowdFeed> feed;
    uint64_t listener = 0;
    bool stream = false;  // an event stream (counted against max_streams)
  };

  HttpResponse List() const;
  void Snapshot(const std::shared_ptr<CrowdFeed>& feed, HttpResponder respond);
  void Events(const std::shared_ptr<CrowdFeed>& feed, HttpResponder respond);
  // The frame `data: {...}\n\n` of `snapshot` (of session `number`), serialised once for all
  // the session's readers.
  std::shared_ptr<const std::string> Frame(uint64_t number,
                                           const std::shared_ptr<const CrowdSnapshot>& snapshot);
  // Records the feed's number of subscription `key`'s listener; false when the key is gone
  // (Close() ran, or a one-shot listener has answered already).
  bool Keep(uint64_t key, uint64_t listener);
  // Forgets subscription `key` and unsubscribes it (when the feed still has it).
  void Forget(uint64_t key);

  const ViewerCrowdOptions options_;
  mutable std::mutex mu_;
  std::map<uint64_t, Subscription> subscriptions_;
  uint64_t next_key_ = 1;
  int streams_ = 0;
  bool closed_ = false;
  // The last frame serialised, per session (sessions tick apart: with one slot for all, two
  // watched sessions would each be serialised once per stream). An entry whose snapshot is
  // gone (a later tick replaced it, or the session ended) is dropped at the next frame.
  struct CachedFrame {
    std::weak_ptr<const CrowdSnapshot> of;
    std::shared_ptr<const std::string> frame;
  };
  std::mutex frame_mu_;
  std::map<uint64_t, CachedFrame> frames_;
};

}  // namespace waymesh::server
