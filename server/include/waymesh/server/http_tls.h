#pragma once
// HTTPS for the bounded HTTP server (http_server.h): the server's certificate chain and key,
// loaded once and shared by every connection, and with a client CA mutual TLS (a client must
// present a certificate that CA signed, else its handshake fails). The same files as the gRPC
// port's (tls_files.h), so one set of flags secures every endpoint that carries tokens.

#include <memory>

#include "absl/status/statusor.h"
#include "waymesh/server/tls_files.h"

namespace waymesh::server {

class HttpTls {
 public:
  // The OpenSSL context (http_tls_context.h); only the HTTP server looks inside.
  struct Context;

  // Reads the PEM files and builds a TLS 1.2+ server context; `files.cert` must not be empty.
  // Errors name the flag and the path: NotFound / PermissionDenied / InvalidArgument (not
  // PEM, not a certificate or key OpenSSL accepts, a key that does not match the certificate).
  static absl::StatusOr<std::shared_ptr<const HttpTls>> Load(const TlsFiles& files);

  ~HttpTls();
  HttpTls(const HttpTls&) = delete;
  HttpTls& operator=(const HttpTls&) = delete;

  // True: clients must present a certificate signed by the client CA.
  bool mutual() const { return mutual_; }
  // Shared by the connections of one loop thread (OpenSSL contexts are thread-safe to use).
  Context& context() const { return *context_; }

 private:
  HttpTls(std::unique_ptr<Context> context, bool mutual);
  std::unique_ptr<Context> context_;
  bool mutual_;
};

}  // namespace waymesh::server
