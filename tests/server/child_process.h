#pragma once
// Starts a test's helper binary (waymesh-server, prometheus, promtool) as a child process with
// its output in a log file, and stops it by pid with a bounded wait.

#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace waymesh::testing {

// A running child process; the destructor stops it (SIGTERM, then SIGKILL after 10 s). The child
// is also killed when the thread that started it exits, so start it from the test's own thread.
class ChildProcess {
 public:
  // Runs `argv` (argv[0] is the program path) with stdin from `stdin_path` and stdout + stderr
  // appended to `log_path`.
  static absl::StatusOr<std::unique_ptr<ChildProcess>> Start(
      const std::vector<std::string>& argv, const std::string& log_path,
      const std::string& stdin_path = "/dev/null");
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const { return pid_; }
  // True while the process has not exited (reaps it when it has).
  bool Running();
  // Sends `signal` (e.g. SIGTERM) unless the process already exited.
  void Signal(int signal);
  // Waits up to `timeout` for the exit; returns the exit code, 128 + signal when killed by a
  // signal, or DeadlineExceeded.
  absl::StatusOr<int> Wait(absl::Duration timeout);
  // SIGTERM, wait up to `grace`, then SIGKILL; returns the exit code as Wait does.
  int Stop(absl::Duration grace = absl::Seconds(10));
  // The log file's contents so far (for failure messages).
  std::string Log() const;

 private:
  ChildProcess(pid_t pid, std::string log_path) : pid_(pid), log_path_(std::move(log_path)) {}
  pid_t pid_;
  std::string log_path_;
  bool exited_ = false;
  int exit_code_ = -1;
};

// Runs `argv` to completion (bounded by `timeout`, then killed) with `stdin_data` on its stdin;
// returns the exit code and fills `output` with stdout + stderr.
absl::StatusOr<int> RunProgram(const std::vector<std::string>& argv, const std::string& stdin_data,
                               std::string* output, absl::Duration timeout = absl::Seconds(30));

// A TCP port on 127.0.0.1 that was free a moment ago (bind to port 0, then close).
absl::StatusOr<int> PickFreeLoopbackPort();

// Absolute path of `program` found in $PATH or /usr/bin, or NotFound.
absl::StatusOr<std::string> FindProgram(const std::string& program);

}  // namespace waymesh::testing
