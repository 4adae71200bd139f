#pragma once
// One server-sent events stream (the viewer's /api/crowds/N/events) read on a raw socket,
// plain or TLS.

#include <optional>
#include <string>

#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "raw_http.h"

namespace waymesh::testing {

class EventStream {
 public:
  // GET `path` with `token` (when not empty), over TLS when `tls` is set; the answer's status
  // (0 when the connection or the handshake failed).
  int Open(int port, const std::string& path, const std::string& token = "",
           const TlsClientOptions* tls = nullptr);
  // The next event that is not a comment: its `data:` as JSON, with `*name` its event name
  // ("" for a plain frame); null when the stream closed or nothing came in time.
  nlohmann::json Next(std::string* name = nullptr, int* comments = nullptr);
  bool ClosedWithin(absl::Duration timeout) { return connection_->ClosedWithin(timeout); }
  // TLS: whether the server ended the stream with its close_notify.
  bool clean_close() const { return connection_->clean_close(); }
  void Drop() { connection_.reset(); }

 private:
  std::optional<RawConnection> connection_;
};

}  // namespace waymesh::testing
