#pragma once
// The client side of TLS for the raw test connections (raw_http.h): OpenSSL on a connected,
// non-blocking socket, every wait bounded by a deadline, so a test never hangs on a server
// that does not answer.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace waymesh::testing {

struct TlsClientOptions {
  std::string ca_file;    // PEM: the CA the server's certificate must chain to (for 127.0.0.1)
  std::string cert_file;  // PEM: the client's certificate, for mutual TLS; empty = none
  std::string key_file;   // PEM: its key
};

class TlsSession {
 public:
  // Shakes hands on `fd` (made non-blocking; still owned by the caller) by `give_up`,
  // verifying the server's certificate. Unavailable with OpenSSL's reason when the handshake
  // fails, DeadlineExceeded when it does not end in time.
  static absl::StatusOr<std::unique_ptr<TlsSession>> Connect(int fd,
                                                             const TlsClientOptions& options,
                                                             absl::Time give_up);
  ~TlsSession();
  TlsSession(const TlsSession&) = delete;
  TlsSession& operator=(const TlsSession&) = delete;

  // Writes all of `data` by `give_up`; false when the peer closed or broke the session.
  bool Write(const std::string& data, absl::Time give_up);
  // Appends what arrives next to `*out`: OK, Unavailable (the server closed: `clean` tells
  // whether it sent its close_notify first), DeadlineExceeded (nothing by `give_up`).
  absl::Status Read(std::string* out, absl::Time give_up, bool* clean = nullptr);

 private:
  struct Handles;
  explicit TlsSession(std::unique_ptr<Handles> handles);
  // Waits for what OpenSSL asked for after `result` (SSL_ERROR_WANT_READ / _WRITE); false
  // on another error or at `give_up`.
  bool WaitFor(int result, absl::Time give_up);
  std::unique_ptr<Handles> handles_;
};

}  // namespace waymesh::testing
