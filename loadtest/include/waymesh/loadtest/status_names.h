#pragma once
// gRPC status codes and errors spelled as ghz (Go's grpc-go) prints them, so reports compare
// line by line with ghz's.

#include <string>

#include "absl/strings/string_view.h"
#include "grpcpp/support/status.h"

namespace waymesh::loadtest {

// Go's name of a code: "OK", "Canceled", "InvalidArgument", "DeadlineExceeded", ...
std::string CodeName(grpc::StatusCode code);

// Go's error text of a failed call: "rpc error: code = NotFound desc = <message>".
std::string ErrorText(grpc::StatusCode code, absl::string_view message);

}  // namespace waymesh::loadtest
