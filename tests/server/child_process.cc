#include "child_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"

namespace waymesh::testing {
namespace {

int DecodeWaitStatus(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return -1;
}

absl::StatusOr<pid_t> Spawn(const std::vector<std::string>& argv, const std::string& stdin_path,
                            const std::string& log_path) {
  if (argv.empty()) return absl::InvalidArgumentError("empty argv");
  // Everything the child needs is prepared before fork: between fork and exec only
  // async-signal-safe calls are allowed (the test process has other threads).
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int in_fd = open(stdin_path.c_str(), O_RDONLY | O_CLOEXEC);
  const int log_fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (in_fd < 0 || log_fd < 0) {
    if (in_fd >= 0) close(in_fd);
    if (log_fd >= 0) close(log_fd);
    return absl::InternalError(
        absl::StrCat("cannot open ", stdin_path, " or ", log_path, ": ", std::strerror(errno)));
  }
  const pid_t parent = getpid();
  const pid_t pid = fork();
  if (pid == 0) {
    // A crashed or killed test must not leave servers behind holding ports: the child dies with
    // the thread that started it.
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127);
    dup2(in_fd, STDIN_FILENO);
    dup2(log_fd, STDOUT_FILENO);
    dup2(log_fd, STDERR_FILENO);
    execv(args[0], args.data());
    _exit(127);
  }
  const int fork_errno = errno;
  close(in_fd);
  close(log_fd);
  if (pid < 0) {
    return absl::InternalError(absl::StrCat("fork for ", argv[0], ": ", std::strerror(fork_errno)));
  }
  return pid;
}

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

// A unique file name in the temp directory (several tests may run in parallel under ctest).
std::string TempFile(const std::string& stem) {
  static std::atomic<int> counter{0};
  return (std::filesystem::temp_directory_path() /
          absl::StrCat("waymesh-", stem, "-", getpid(), "-", counter++))
      .string();
}

}  // namespace

absl::StatusOr<std::unique_ptr<ChildProcess>> ChildProcess::Start(
    const std::vector<std::string>& argv, const std::string& log_path,
    const std::string& stdin_path) {
  absl::StatusOr<pid_t> pid = Spawn(argv, stdin_path, log_path);
  if (!pid.ok()) return pid.status();
  return std::unique_ptr<ChildProcess>(new ChildProcess(*pid, log_path));
}

ChildProcess::~ChildProcess() { Stop(); }

bool ChildProcess::Running() {
  if (exited_) return false;
  int status = 0;
  const pid_t r = waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    exited_ = true;
    exit_code_ = DecodeWaitStatus(status);
  } else if (r < 0) {
    exited_ = true;  // not our child any more: nothing to wait for
  }
  return !exited_;
}

void ChildProcess::Signal(int signal) {
  if (Running()) kill(pid_, signal);
}

absl::StatusOr<int> ChildProcess::Wait(absl::Duration timeout) {
  const absl::Time give_up = absl::Now() + timeout;
  while (Running()) {
    if (absl::Now() >= give_up) {
      return absl::DeadlineExceededError(
          absl::StrCat("pid ", pid_, " still running after ", absl::FormatDuration(timeout)));
    }
    absl::SleepFor(absl::Milliseconds(10));
  }
  return exit_code_;
}

int ChildProcess::Stop(absl::Duration grace) {
  Signal(SIGTERM);
  if (absl::StatusOr<int> code = Wait(grace); code.ok()) return *code;
  Signal(SIGKILL);
  absl::StatusOr<int> code = Wait(absl::Seconds(10));
  return code.ok() ? *code : -1;
}

std::string ChildProcess::Log() const { return ReadWhole(log_path_); }

absl::StatusOr<int> RunProgram(const std::vector<std::string>& argv, const std::string& stdin_data,
                               std::string* output, absl::Duration timeout) {
  const std::string in_path = TempFile("stdin");
  const std::string out_path = TempFile("stdout");
  {
    std::ofstream in(in_path, std::ios::binary);
    in << stdin_data;
  }
  absl::StatusOr<std::unique_ptr<ChildProcess>> child =
      ChildProcess::Start(argv, out_path, in_path);
  if (!child.ok()) return child.status();
  absl::StatusOr<int> code = (*child)->Wait(timeout);
  if (!code.ok()) (*child)->Stop(absl::Seconds(1));
  if (output != nullptr) *output = (*child)->Log();
  std::filesystem::remove(in_path);
  std::filesystem::remove(out_path);
  return code;
}

absl::StatusOr<int> PickFreeLoopbackPort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return absl::InternalError(absl::StrCat("socket: ", std::strerror(errno)));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof(addr);
  const bool ok = bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
                  getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0;
  close(fd);
  if (!ok) return absl::InternalError(absl::StrCat("bind: ", std::strerror(errno)));
  return static_cast<int>(ntohs(addr.sin_port));
}

absl::StatusOr<std::string> FindProgram(const std::string& program) {
  const char* path_env = std::getenv("PATH");
  std::vector<std::string> dirs =
      absl::StrSplit(path_env != nullptr ? path_env : "", ':', absl::SkipEmpty());
  dirs.push_back("/usr/bin");
  for (const std::string& dir : dirs) {
    const std::string candidate = absl::StrCat(dir, "/", program);
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return absl::NotFoundError(absl::StrCat(program,
                                          " not found in $PATH or /usr/bin (install the "
                                          "Debian package listed in scripts/deps.sh)"));
}

}  // namespace waymesh::testing
