#pragma once
// Runs Debian's real `prometheus` for a test: on a free loopback port, scraping one metrics
// endpoint every second, storing its TSDB in a temporary directory, and queried through its
// HTTP API (/api/v1/query).

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "child_process.h"

namespace waymesh::testing {

class PrometheusRunner {
 public:
  // Starts prometheus scraping http://127.0.0.1:`target_port`/metrics every 1 s and waits (up
  // to 30 s) until it reports ready.
  static absl::StatusOr<std::unique_ptr<PrometheusRunner>> Start(int target_port);
  // Stops prometheus (SIGTERM, bounded wait) and removes its directory.
  ~PrometheusRunner();

  int port() const { return port_; }
  // Instant query; the value of the single result series. NotFound when the result is empty,
  // FailedPrecondition when it has several series.
  absl::StatusOr<double> QueryScalar(const std::string& promql);
  // Polls QueryScalar every 250 ms until `accept` holds or `timeout` passes; returns the last
  // value, or DeadlineExceeded (with the last value or error) when never accepted.
  absl::StatusOr<double> WaitFor(const std::string& promql,
                                 const std::function<bool(double)>& accept,
                                 absl::Duration timeout = absl::Seconds(20));
  // prometheus's log so far (for failure messages).
  std::string Log() const { return process_->Log(); }

 private:
  PrometheusRunner(std::string dir, int port, std::unique_ptr<ChildProcess> process)
      : dir_(std::move(dir)), port_(port), process_(std::move(process)) {}
  std::string dir_;
  int port_;
  std::unique_ptr<ChildProcess> process_;
};

}  // namespace waymesh::testing
