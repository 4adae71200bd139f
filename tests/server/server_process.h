#pragma once
// The real waymesh-server binary as a child process on loopback ports, for tests that must see
// what an operator sees: files changed under it, abusive HTTP clients, signals, its memory and
// descriptors from /proc.

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "child_process.h"

namespace waymesh::testing {

class ServerProcess {
 public:
  // Starts waymesh-server on free 127.0.0.1 ports (gRPC and metrics) serving `maps_dir`, with
  // a spool and the log under `work_dir`, plus `flags`; returns once /healthz answers 200
  // (bounded: 30 s), or the error with the server's log.
  static absl::StatusOr<std::unique_ptr<ServerProcess>> Start(const std::string& maps_dir,
                                                              const std::string& work_dir,
                                                              std::vector<std::string> flags = {});

  std::string target() const;  // "127.0.0.1:<grpc port>"
  int metrics_port() const { return metrics_port_; }
  ChildProcess& process() { return *process_; }
  // Resident memory (VmRSS) now, in bytes; 0 when it cannot be read.
  uint64_t RssBytes() const;
  // Descriptors the process holds open now; -1 when they cannot be counted.
  int OpenDescriptors() const;

 private:
  ServerProcess(std::unique_ptr<ChildProcess> process, int port, int metrics_port)
      : process_(std::move(process)), port_(port), metrics_port_(metrics_port) {}
  std::unique_ptr<ChildProcess> process_;
  int port_;
  int metrics_port_;
};

}  // namespace waymesh::testing
