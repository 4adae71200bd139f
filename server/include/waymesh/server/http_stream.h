#pragma once
// A response whose body is written piece by piece after its header, for as long as both ends
// want (server-sent events): a handler creates one, answers with it (HttpResponse::stream), and
// then sends pieces from any thread. The HttpServer writes them on its loop thread, in order.
//
// Bounded: pieces not yet taken by the client count against max_backlog_bytes, and a piece
// that would pass it is dropped (counted), never buffered: a slow reader misses frames instead
// of growing the server's memory. Heartbeats (a fixed text written when nothing else was for a
// while) keep proxies from closing the connection and find a client that has gone.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "absl/time/time.h"

namespace waymesh::server {

struct HttpStreamOptions {
  size_t max_backlog_bytes = 1 << 20;  // sent but not yet taken by the client
  absl::Duration heartbeat = absl::Seconds(15);
  std::string heartbeat_text = ":\n\n";  // an SSE comment line
  // Runs once, on the server's loop thread, when the stream closes (either end, or the server
  // stopping). Must be quick.
  std::function<void()> on_close;
};

class HttpStream {
 public:
  enum class Sent { kQueued, kDropped, kClosed };

  explicit HttpStream(HttpStreamOptions options);
  HttpStream(const HttpStream&) = delete;
  HttpStream& operator=(const HttpStream&) = delete;

  // Queues `piece` to be written after what was queued before; kDropped when the backlog is
  // full (nothing queued), kClosed once the stream has closed. Any thread.
  Sent Send(std::string piece);
  // Ends the response once what is queued has been written. Any thread; idempotent.
  void Close();
  bool closed() const;
  // Pieces dropped for a slow reader.
  uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }
  const HttpStreamOptions& options() const { return options_; }

  // --- For the HttpServer (http_server.cc) ---
  // Where pieces go once the response header is sent: `write` queues one piece on the
  // connection, `finish` ends it. Both are called with the stream's lock held and must only
  // post work to the loop thread. Pieces sent before Attach wait (within the backlog).
  void Attach(std::function<void(std::string)> write, std::function<void()> finish);
  // The client took `bytes` of what was sent.
  void Taken(size_t bytes);
  // The connection closed (loop thread): Send answers kClosed from now on; runs on_close.
  void Detach();

 private:
  const HttpStreamOptions options_;
  mutable std::mutex mu_;
  std::function<void(std::string)> write_;
  std::function<void()> finish_;
  std::string early_;  // sent before Attach
  bool close_wanted_ = false;
  bool closed_ = false;
  size_t backlog_ = 0;
  std::atomic<uint64_t> dropped_{0};
};

}  // namespace waymesh::server
