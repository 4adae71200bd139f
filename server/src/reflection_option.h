#pragma once
// Server reflection per server rather than per process: gRPC's
// InitProtoReflectionServerBuilderPlugin() adds reflection to every server built afterwards,
// which would put it on the health-only port too and make --reflection=false impossible once
// any server in the process had it.

#include <memory>

#include "grpcpp/impl/server_builder_option.h"

namespace waymesh::server {

// A ServerBuilder option that gives the server reflection (grpc.reflection.v1 and v1alpha) when
// `enabled`, and makes sure it has none otherwise.
std::unique_ptr<grpc::ServerBuilderOption> ReflectionOption(bool enabled);

}  // namespace waymesh::server
