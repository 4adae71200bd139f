#pragma once
// A deliberately crude HTTP/1.1 client on a plain socket, for tests that must misbehave the
// way an attacker does (trickle bytes, send more than a server wants, never read, hold idle
// connections) where a real client library would not. It speaks TLS too (OpenTls).

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "tls_session.h"

namespace waymesh::testing {

// One TCP connection to 127.0.0.1:port; closed on destruction.
class RawConnection {
 public:
  // Connects (bounded by 5 s). `receive_buffer` > 0 shrinks SO_RCVBUF before connecting, so a
  // client that does not read stalls the server's writes early.
  static absl::StatusOr<RawConnection> Open(int port, int receive_buffer = 0);
  // Connects and shakes hands (TLS, bounded by 5 s); an error when either fails.
  static absl::StatusOr<RawConnection> OpenTls(int port, const TlsClientOptions& options);
  RawConnection(RawConnection&& other) noexcept
      : fd_(other.fd_),
        pending_(std::move(other.pending_)),
        tls_(std::move(other.tls_)),
        clean_close_(other.clean_close_) {
    other.fd_ = -1;
  }
  RawConnection& operator=(RawConnection&& other) noexcept;
  ~RawConnection();

  // Sends all of `data` (false once the peer has closed or reset).
  bool Send(const std::string& data);
  // Sends each piece with Send (over TLS: each its own TLS record) but all in one TCP
  // segment, so they arrive together.
  bool SendTogether(const std::vector<std::string>& pieces);
  // Reads one response (status line, headers, Content-Length body; no body when
  // `head_request`) within `timeout`; the status code, or an error (closed before a response,
  // timeout).
  absl::StatusOr<int> ReadStatus(absl::Duration timeout = absl::Seconds(5),
                                 std::string* body = nullptr, bool head_request = false);
  // What arrives up to `delimiter` (consumed with it, not returned) within `timeout`: for a
  // body read piece by piece (server-sent events). Unavailable when the connection closes
  // first, DeadlineExceeded when it takes longer.
  absl::StatusOr<std::string> ReadUntil(const std::string& delimiter,
                                        absl::Duration timeout = absl::Seconds(5));
  // Whether the server closed the connection within `timeout` (reads and drops what comes).
  bool ClosedWithin(absl::Duration timeout);
  // TLS: whether the server's last close came with its close_notify (a body that ends with the
  // connection was not cut short).
  bool clean_close() const { return clean_close_; }

 private:
  explicit RawConnection(int fd) : fd_(fd) {}
  // Appends what arrives next (before `give_up`) to pending_.
  absl::Status ReceiveMore(absl::Time give_up);
  int fd_ = -1;
  std::string pending_;              // read but not yet consumed
  std::unique_ptr<TlsSession> tls_;  // set: everything goes through TLS
  bool clean_close_ = false;
};

// "GET <path> HTTP/1.1" with a Host header, keep-alive.
std::string GetRequest(const std::string& path);

}  // namespace waymesh::testing
