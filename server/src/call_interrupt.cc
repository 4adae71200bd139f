#include "waymesh/server/call_interrupt.h"

#include "waymesh/server/error_model.h"

namespace waymesh::server {

absl::Status CallLiveness(bool cancelled, std::chrono::system_clock::time_point deadline,
                          std::chrono::system_clock::time_point now) {
  if (cancelled) return WithReason(absl::CancelledError("the call was cancelled"), reason::kCancelled);
  if (now >= deadline) {
    return WithReason(absl::DeadlineExceededError("the call's deadline passed"),
                      reason::kDeadlineExceeded);
  }
  return absl::OkStatus();
}

absl::Status CallInterrupt::Check() {
  return CallLiveness(ctx_->IsCancelled(), deadline_, std::chrono::system_clock::now());
}

}  // namespace waymesh::server
