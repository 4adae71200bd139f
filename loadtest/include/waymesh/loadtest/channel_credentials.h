#pragma once
// The transport security of a run: plaintext for --insecure, else TLS with the configured CA
// (or the system roots) and an optional client certificate.

#include <memory>

#include "absl/status/statusor.h"
#include "grpcpp/security/credentials.h"
#include "waymesh/loadtest/load_config.h"

namespace waymesh::loadtest {

// InvalidArgument when a certificate file cannot be read.
absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> MakeChannelCredentials(
    const LoadConfig& config);

}  // namespace waymesh::loadtest
