#include "viewer_answers.h"

namespace waymesh::server {

HttpResponse JsonAnswer(int status, const nlohmann::json& body) {
  return {status, "application/json", body.dump()};
}

HttpResponse ErrorAnswer(int status, absl::string_view code, absl::string_view message) {
  HttpResponse r = JsonAnswer(status, {{"error", {{"code", code}, {"message", message}}}});
  if (status == 401) r.headers.push_back({"WWW-Authenticate", "Bearer"});
  return r;
}

int HttpStatusOf(absl::StatusCode code) {
  switch (code) {
    case absl::StatusCode::kInvalidArgument:
    case absl::StatusCode::kOutOfRange:
      return 400;
    case absl::StatusCode::kUnauthenticated:
      return 401;
    case absl::StatusCode::kPermissionDenied:
      return 403;
    case absl::StatusCode::kNotFound:
      return 404;
    case absl::StatusCode::kFailedPrecondition:
      return 412;
    case absl::StatusCode::kResourceExhausted:
      return 429;
    case absl::StatusCode::kUnavailable:
      return 503;
    case absl::StatusCode::kDeadlineExceeded:
      return 504;
    default:
      return 500;
  }
}

HttpResponse StatusAnswer(const absl::Status& s) {
  return ErrorAnswer(HttpStatusOf(s.code()), absl::StatusCodeToString(s.code()), s.message());
}

}  // namespace waymesh::server
