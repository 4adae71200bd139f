#pragma once
// The map viewer on --ui-port (docs/viewer.md): a single page (HTML, JS and CSS compiled into
// the binary, so nothing is looked up at run time) and the JSON API it draws from, served by
// the bounded HttpServer (http_server.h). The API's answers are bounded (a tile at a time) and
// its queries run as this server's RPCs run them, on its worker pool.

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "waymesh/server/http_server.h"
#include "waymesh/server/viewer_api_options.h"

namespace waymesh::server {

class ViewerApi;

struct ViewerHttpOptions {
  // Where to listen; the viewer binds loopback unless told otherwise.
  HttpServerOptions http = {.address = "127.0.0.1", .name = "viewer"};
  ViewerApiOptions api;  // what the API reads; each pointer must outlive the server
};

// Serves the viewer until stopped. Thread-safe.
class ViewerHttpServer {
 public:
  // Binds and serves. Errors: InvalidArgument for a port outside 0..65535 or a missing
  // dependency, Unavailable when the address cannot be bound.
  static absl::StatusOr<std::unique_ptr<ViewerHttpServer>> Start(ViewerHttpOptions options);
  ~ViewerHttpServer();
  ViewerHttpServer(const ViewerHttpServer&) = delete;
  ViewerHttpServer& operator=(const ViewerHttpServer&) = delete;

  // The bound port.
  int port() const;
  HttpServerStats stats() const;
  // Closes the port and every connection, then waits for answers still being computed (their
  // queries have deadlines); idempotent. Call before the pool and the gRPC server stop.
  void Stop();

 private:
  ViewerHttpServer(std::unique_ptr<HttpServer> http, std::unique_ptr<ViewerApi> api);
  // Answers post to http_'s loop, so http_ outlives every answer: api_ is destroyed first and
  // waits for them.
  std::unique_ptr<HttpServer> http_;
  std::unique_ptr<ViewerApi> api_;
};

}  // namespace waymesh::server
