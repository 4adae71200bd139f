#pragma once
// Stops a running search when its call is over: the client cancelled (or went away) or the
// call's deadline passed. Polled by core every few hundred search nodes.

#include <chrono>

#include "absl/status/status.h"
#include "grpcpp/grpcpp.h"
#include "waymesh/core/query_interrupt.h"

namespace waymesh::server {

// Why a call should not (or no longer) be worked on, as an absl status: Cancelled,
// DeadlineExceeded or OK. `deadline` is the call's (system clock, as gRPC keeps it).
absl::Status CallLiveness(bool cancelled, std::chrono::system_clock::time_point deadline,
                          std::chrono::system_clock::time_point now);

class CallInterrupt final : public QueryInterrupt {
 public:
  // `ctx` must stay valid while the search runs (it does until the call is finished).
  explicit CallInterrupt(grpc::CallbackServerContext* ctx)
      : ctx_(ctx), deadline_(ctx->deadline()) {}
  absl::Status Check() override;

 private:
  grpc::CallbackServerContext* ctx_;
  std::chrono::system_clock::time_point deadline_;
};

}  // namespace waymesh::server
