#pragma once
// The .proto files the loadtest tests hand to waymesh-load and DescriptorSource: Waymesh's own
// API from the source tree and gRPC's health service as Debian installs it.

#include <string>

namespace waymesh::loadtest::testing {

inline const std::string kProtoRoot = WAYMESH_LOADTEST_DIR "/../proto";
inline const std::string kNavigationProto = kProtoRoot + "/waymesh/v1/navigation.proto";
inline constexpr char kHealthProto[] = "/usr/share/grpc-proto/grpc/health/v1/health.proto";

}  // namespace waymesh::loadtest::testing
