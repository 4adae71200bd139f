#pragma once
// Transport security of the gRPC port from the TLS flags: plaintext, TLS, or mutual TLS (the
// client must present a certificate signed by the given CA).

#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "grpcpp/security/server_credentials.h"
#include "waymesh/server/tls_files.h"

namespace waymesh::server {

// Reads the files (each at most 1 MiB) and builds the credentials. Errors name the flag and
// the path: NotFound / PermissionDenied / InvalidArgument (empty, too large, not PEM).
absl::StatusOr<std::shared_ptr<grpc::ServerCredentials>> MakeServerCredentials(
    const TlsFiles& files);

}  // namespace waymesh::server
