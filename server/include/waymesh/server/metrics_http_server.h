#pragma once
// The HTTP endpoint on --metrics-port: GET /metrics (Prometheus text format 0.0.4) and
// GET /healthz (liveness/readiness for Kubernetes), served by the bounded HttpServer (one loop
// thread, limited request size and time, capped connections: see http_server.h).

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "waymesh/server/http_server.h"

namespace waymesh::server {

// Where the metrics server listens (address, port, limits); its name in log lines and errors
// is always "metrics server".
using MetricsHttpOptions = HttpServerOptions;

// Serves /metrics and /healthz until stopped. Thread-safe.
class MetricsHttpServer {
 public:
  // Binds and starts serving. `render` produces the /metrics body (e.g. ServerMetrics::Render);
  // `healthy` decides /healthz: 200 "ok" when true, 503 "not serving" otherwise (null = always
  // healthy). Both are called from HTTP threads and must outlive the server. Errors:
  // InvalidArgument for a port outside 0..65535, Unavailable when the address cannot be bound.
  static absl::StatusOr<std::unique_ptr<MetricsHttpServer>> Start(
      MetricsHttpOptions options, std::function<std::string()> render,
      std::function<bool()> healthy = nullptr);

  ~MetricsHttpServer();
  MetricsHttpServer(const MetricsHttpServer&) = delete;
  MetricsHttpServer& operator=(const MetricsHttpServer&) = delete;

  // The bound port (the chosen one when options.port was 0).
  int port() const;
  // Requests answered and refused so far.
  HttpServerStats stats() const;
  // Stops accepting, closes every connection and joins the serving thread; idempotent (the
  // destructor calls it).
  void Stop();

 private:
  explicit MetricsHttpServer(std::unique_ptr<HttpServer> http);
  std::unique_ptr<HttpServer> http_;
};

}  // namespace waymesh::server
