#pragma once
// Any unary call of the public API made from JSON, with no code per RPC: waymesh-client resolves
// the method and its message types from the descriptors compiled into the binary
// (waymesh.v1.NavigationService and grpc.health.v1.Health), so an RPC added to the proto is
// callable as soon as the client is rebuilt. Failed calls are described from the
// google.rpc.Status details the server sends (ErrorInfo, BadRequest, RetryInfo).

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/message.h"
#include "grpcpp/grpcpp.h"

namespace waymesh::server {

// The unary method called `name`: "FindPath", "NavigationService.FindPath",
// "waymesh.v1.NavigationService.FindPath", "waymesh.v1.NavigationService/FindPath" (with or
// without a leading '/'), likewise "Health.Check" or "grpc.health.v1.Health.Check". NotFound
// lists the known methods; InvalidArgument refuses streaming methods.
absl::StatusOr<const google::protobuf::MethodDescriptor*> FindClientMethod(absl::string_view name);

// The full names of every unary method the client can call, sorted per service.
std::vector<std::string> ClientMethodNames();

// A new request message of `method` parsed from protobuf's JSON mapping (proto field names or
// lowerCamelCase, enum names or numbers; unknown fields are errors). Empty or blank text is
// the empty request. InvalidArgument naming the message type and the parser's reason.
absl::StatusOr<std::unique_ptr<google::protobuf::Message>> RequestFromJson(
    const google::protobuf::MethodDescriptor& method, absl::string_view json);

// `message` as indented JSON with proto field names and every field (zero values included, so
// "found": false is visible), ending with a newline.
std::string MessageToJson(const google::protobuf::Message& message);

// Calls `method` over `channel` with `request` and blocks until the answer; on OK `response`
// (a message of the method's output type) holds it. A response that does not parse is
// INTERNAL.
grpc::Status CallUnary(const std::shared_ptr<grpc::Channel>& channel, grpc::ClientContext* context,
                       const google::protobuf::MethodDescriptor& method,
                       const google::protobuf::Message& request,
                       google::protobuf::Message* response);

// gRPC's canonical name of a code: "OK", "NOT_FOUND", "RESOURCE_EXHAUSTED", ...
std::string StatusCodeName(grpc::StatusCode code);

// A failed call for people: "NOT_FOUND: <message>", then one indented line per detail the
// status carries (ErrorInfo reason, domain and metadata; each BadRequest field violation;
// RetryInfo delay; the type of any other detail), each line ending with a newline.
std::string DescribeStatus(const grpc::Status& status);

}  // namespace waymesh::server
