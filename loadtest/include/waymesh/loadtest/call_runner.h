#pragma once
// Drives the calls of a load run: `connections` channels, `concurrency` unary calls in flight
// over them (callback API, no thread per call), optionally paced by a load schedule.

#include <atomic>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "grpcpp/security/credentials.h"
#include "waymesh/loadtest/load_schedule.h"
#include "waymesh/loadtest/run_result.h"

namespace waymesh::loadtest {

struct RunPlan {
  std::string target;  // HOST:PORT
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  std::string ssl_target_name;        // TLS name override ("cname"); empty = the host's
  std::string method_path;            // "/pkg.Service/Method"
  std::vector<std::string> requests;  // serialized messages, sent round-robin
  std::vector<std::pair<std::string, std::string>> metadata;
  uint64_t total = 0;                              // 0 = no count limit
  absl::Duration duration = absl::ZeroDuration();  // zero = no time limit
  int concurrency = 1;
  int connections = 1;
  // When calls start: const with rps 0 = closed loop (each finished call starts the next at
  // once); otherwise call k starts when the schedule makes it due and a slot is free.
  LoadSchedule schedule;
  bool record_calls = false;  // keep every call's latency, status and error (CSV report)
  absl::Duration timeout = absl::Seconds(20);          // deadline of each call
  absl::Duration connect_timeout = absl::Seconds(10);  // to open each connection
  // Set (e.g. by SIGINT) to stop starting calls; in-flight ones still finish.
  const std::atomic<bool>* interrupt = nullptr;
};

// Runs `plan` to its end: `total` calls or `duration`, whichever comes first, then waits for the
// calls in flight (each bounded by its deadline). Unavailable when a connection cannot be made
// within the connect timeout; InvalidArgument for a plan without requests, total or duration.
absl::StatusOr<RunResult> RunLoad(const RunPlan& plan);

}  // namespace waymesh::loadtest
