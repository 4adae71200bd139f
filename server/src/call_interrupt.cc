#include "waymesh/server/call_interrupt.h"

#include <string>

namespace waymesh::server {

absl::Status CallLiveness(bool cancelled, std::chrono::system_clock::time_point deadline,
                          std::chrono::system_clock::time_point now) {
  if (cancelled) return absl::CancelledError("the call was cancelled");
  if (now >= deadline) return absl::DeadlineExceededError("the call's deadline passed");
  return absl::OkStatus();
}

absl::Status CallInterrupt::Check() {
  return CallLiveness(ctx_->IsCancelled(), deadline_, std::chrono::system_clock::now());
}

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()), std::string(status.message()));
}

}  // namespace waymesh::server
