#include "waymesh/loadtest/status_names.h"

#include "absl/strings/str_cat.h"

namespace waymesh::loadtest {

std::string CodeName(grpc::StatusCode code) {
  switch (code) {
    case grpc::StatusCode::OK:
      return "OK";
    case grpc::StatusCode::CANCELLED:
      return "Canceled";
    case grpc::StatusCode::UNKNOWN:
      return "Unknown";
    case grpc::StatusCode::INVALID_ARGUMENT:
      return "InvalidArgument";
    case grpc::StatusCode::DEADLINE_EXCEEDED:
      return "DeadlineExceeded";
    case grpc::StatusCode::NOT_FOUND:
      return "NotFound";
    case grpc::StatusCode::ALREADY_EXISTS:
      return "AlreadyExists";
    case grpc::StatusCode::PERMISSION_DENIED:
      return "PermissionDenied";
    case grpc::StatusCode::RESOURCE_EXHAUSTED:
      return "ResourceExhausted";
    case grpc::StatusCode::FAILED_PRECONDITION:
      return "FailedPrecondition";
    case grpc::StatusCode::ABORTED:
      return "Aborted";
    case grpc::StatusCode::OUT_OF_RANGE:
      return "OutOfRange";
    case grpc::StatusCode::UNIMPLEMENTED:
      return "Unimplemented";
    case grpc::StatusCode::INTERNAL:
      return "Internal";
    case grpc::StatusCode::UNAVAILABLE:
      return "Unavailable";
    case grpc::StatusCode::DATA_LOSS:
      return "DataLoss";
    case grpc::StatusCode::UNAUTHENTICATED:
      return "Unauthenticated";
    default:
      break;
  }
  // Go prints codes it has no name for as Code(N).
  return absl::StrCat("Code(", static_cast<int>(code), ")");
}

std::string ErrorText(grpc::StatusCode code, absl::string_view message) {
  return absl::StrCat("rpc error: code = ", CodeName(code), " desc = ", message);
}

}  // namespace waymesh::loadtest
