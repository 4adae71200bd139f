#pragma once
// waymesh-server's command-line flags (abseil flags, defined in server_flags.cc). Each flag is
// also read from WAYMESH_<NAME> in the environment (see flag_environment.h).

#include <span>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "waymesh/server/server_config.h"

namespace waymesh::server {

// The abseil names (underscores) of every flag defined in server_flags.cc, sorted (the
// --help order).
std::span<const absl::string_view> ServerFlagNames();

// The configuration the flags hold right now, validated (see ValidateServerConfig).
absl::StatusOr<ServerConfig> ServerConfigFromFlags();

}  // namespace waymesh::server
