#pragma once
// A small HTTP/1.1 server for the server's side endpoints (/metrics and /healthz, the map
// viewer's page and JSON API) that no client can exhaust: one event loop thread (Boost.Beast on
// Asio), so a slow client holds a socket, never a thread; every request is bounded in size and
// time, and the number of open connections is capped.
//
//   - request line + header fields at most max_header_bytes (else 431), body at most
//     max_body_bytes (else 413: a declared Content-Length over the limit is refused before any
//     of the body is read, a chunked body as soon as it passes the limit);
//   - a connection may wait idle_timeout for the first byte of a request, then has
//     request_timeout to deliver all of it (else 408: a client trickling a byte at a time gains
//     nothing), and write_timeout for each response to be taken;
//   - at max_connections, a new connection takes the place of the one that has waited longest
//     for its request (idle or trickling); only when every connection is busy being answered is
//     the newcomer refused with 503. A flood of idle connections therefore never locks out a
//     prober.
// Handlers run on the loop thread and must be quick (render a page of text, no blocking I/O);
// an asynchronous route hands its work elsewhere and answers later from any thread, while its
// connection waits (busy: never evicted for a newcomer). A streamed answer (HttpStream: server-
// sent events) keeps its connection, busy, until either end closes it; its pieces are written
// within write_timeout each, and the client's input is read and dropped meanwhile.
//
// With TLS (HttpServerOptions::tls) every connection is HTTPS: it shakes hands first, within
// request_timeout (waiting for its handshake it counts as waiting, evictable like an idle
// one); a plain HTTP request fails the handshake and is closed unanswered, and so is a
// newcomer when every connection is busy (no 503 without a handshake).

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "waymesh/server/http_stream.h"
#include "waymesh/server/http_tls.h"

namespace waymesh::server {

struct HttpLimits {
  uint32_t max_header_bytes = 16 << 10;                // request line + header fields
  uint64_t max_body_bytes = 64 << 10;                  // request body
  absl::Duration idle_timeout = absl::Seconds(30);     // waiting for a request's first byte
  absl::Duration request_timeout = absl::Seconds(10);  // first byte to the whole request
  absl::Duration write_timeout = absl::Seconds(10);    // for the client to take a response
  int max_connections = 64;                            // open connections, refusals included
};

struct HttpRequest {
  std::string method;  // "GET", "HEAD", ...
  std::string path;    // target without the query
  std::string query;   // after '?', undecoded; empty when none
  std::string body;
  std::string authorization;  // the Authorization header; empty when none
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers = {};  // extra header fields
  // Set: the body is this stream's pieces (after `body`), written until the stream or the
  // client closes; no Content-Length, and the connection closes after it. A HEAD request gets
  // the header only and the stream is closed at once.
  std::shared_ptr<HttpStream> stream = nullptr;
};

// Answers one request. Called on the loop thread.
using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;
// Sends the answer of one request; call it exactly once, from any thread, before the server is
// destroyed (Stop() first: an answer after Stop() is dropped).
using HttpResponder = std::function<void(HttpResponse)>;
// Starts answering one request (on the loop thread) and returns at once.
using AsyncHttpHandler = std::function<void(HttpRequest, HttpResponder)>;

// One path's handler and the method it takes ("GET" takes HEAD too).
struct HttpRoute {
  std::string method = "GET";
  AsyncHttpHandler handler;
  // True: the route's path ends with '/' and it answers every path below it too (the longest
  // such route wins; a route of the exact path comes first).
  bool prefix = false;
};
// A route answered at once on the loop thread.
HttpRoute SyncRoute(std::string method, HttpHandler handler);

struct HttpServerOptions {
  std::string address = "0.0.0.0";  // interface to bind
  int port = 0;                     // 0 picks a free port (see HttpServer::port)
  HttpLimits limits;
  std::string name = "http";  // for log lines
  // Set: HTTPS only, with this certificate (and client CA); null: plain HTTP.
  std::shared_ptr<const HttpTls> tls = nullptr;
};

// Counts since start, for tests and metrics. Refusals are per reason.
struct HttpServerStats {
  uint64_t requests = 0;           // answered by a handler (any status)
  uint64_t refused_too_large = 0;  // 413 and 431
  uint64_t refused_timeout = 0;    // 408, and TLS handshakes not done within request_timeout
  uint64_t refused_busy = 0;       // 503 (every connection busy) or closed unanswered
  uint64_t evicted_idle = 0;       // waiting connections closed to make room
  uint64_t bad_requests = 0;       // 400 (unparseable) and 405
  uint64_t failed_handshakes = 0;  // TLS handshakes that failed (plain HTTP, no client cert)
  int64_t open_connections = 0;    // now
  int64_t open_streams = 0;        // now: connections writing a streamed answer
};

class HttpServer {
 public:
  // Binds (SO_REUSEADDR, never SO_REUSEPORT: a second process cannot share the port) and
  // starts the loop. `routes` maps a path to the handler of its GET and HEAD requests; other
  // paths get 404, other methods 405. Errors: InvalidArgument for a port outside 0..65535 or
  // bad limits, Unavailable when the address cannot be bound.
  static absl::StatusOr<std::unique_ptr<HttpServer>> Start(
      const HttpServerOptions& options, std::map<std::string, HttpHandler> routes);
  // The same with a method per path (else 405) and handlers that may answer later.
  static absl::StatusOr<std::unique_ptr<HttpServer>> Start(const HttpServerOptions& options,
                                                           std::map<std::string, HttpRoute> routes);

  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // The bound port (the chosen one when options.port was 0).
  int port() const;
  HttpServerStats stats() const;
  // Closes the port and every connection and joins the loop; idempotent.
  void Stop();

 private:
  friend class HttpConnection;  // http_server.cc: one client's requests
  struct Impl;
  explicit HttpServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace waymesh::server
