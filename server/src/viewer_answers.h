#pragma once
// The viewer API's answers (viewer_api.h): JSON bodies, and errors as
// {"error": {"code": "...", "message": "..."}} with the HTTP status of their gRPC code.

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"
#include "waymesh/server/http_server.h"

namespace waymesh::server {

// `body` as application/json with `status`.
HttpResponse JsonAnswer(int status, const nlohmann::json& body);
// An error answer; a 401 also says how to authenticate (WWW-Authenticate: Bearer).
HttpResponse ErrorAnswer(int status, absl::string_view code, absl::string_view message);
// The error answer of `s` (code named as gRPC names it: "NOT_FOUND"), with its HTTP status.
HttpResponse StatusAnswer(const absl::Status& s);
// The HTTP status of a gRPC code (as grpc-gateway maps them).
int HttpStatusOf(absl::StatusCode code);

}  // namespace waymesh::server
