#pragma once
// Clients calling a server in a loop until stopped (FindPath from bank to bank on map "town",
// alternating with GetMapInfo), counting every failed call: the concurrent load of the hot
// reload and fault-injection tests.

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "grpcpp/grpcpp.h"

namespace waymesh::testing {

class BackgroundCallers {
 public:
  // `threads` callers, each on its own channel to `target` ("host:port").
  BackgroundCallers(const std::string& target, int threads);
  ~BackgroundCallers() { Stop(); }
  BackgroundCallers(const BackgroundCallers&) = delete;
  BackgroundCallers& operator=(const BackgroundCallers&) = delete;

  void Stop();
  int calls() const { return calls_; }
  // Calls that failed (an error status, or a FindPath answer without a status).
  int failures() const { return failures_; }
  // The first few failures' codes and messages, for test output.
  std::string failure_sample() const;
  // Waits (bounded: 20 s) until `n` more calls have completed.
  bool WaitCalls(int n);

 private:
  void Loop(const std::string& target);
  void RecordFailure(const grpc::Status& status);

  std::atomic<bool> stop_{false};
  std::atomic<int> calls_{0};
  std::atomic<int> failures_{0};
  mutable std::mutex mu_;
  std::vector<std::string> sample_;
  std::vector<std::thread> threads_;
};

}  // namespace waymesh::testing
