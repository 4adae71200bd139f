#include "server_process.h"

#include <filesystem>
#include <fstream>
#include <string>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "raw_http.h"

namespace waymesh::testing {
namespace {

constexpr absl::Duration kStartTimeout = absl::Seconds(30);

// 200 from GET /healthz on `port` right now.
bool Healthy(int port) {
  absl::StatusOr<RawConnection> c = RawConnection::Open(port);
  if (!c.ok() || !c->Send(GetRequest("/healthz"))) return false;
  absl::StatusOr<int> status = c->ReadStatus(absl::Seconds(1));
  return status.ok() && *status == 200;
}

}  // namespace

absl::StatusOr<std::unique_ptr<ServerProcess>> ServerProcess::Start(
    const std::string& maps_dir, const std::string& work_dir, std::vector<std::string> flags) {
  absl::StatusOr<int> port = PickFreeLoopbackPort();
  absl::StatusOr<int> metrics_port = PickFreeLoopbackPort();
  if (!port.ok()) return port.status();
  if (!metrics_port.ok()) return metrics_port.status();
  const std::string spool = work_dir + "/spool";
  std::filesystem::create_directories(spool);
  std::vector<std::string> argv = {WAYMESH_SERVER_BIN,
                                   "--maps-dir=" + maps_dir,
                                   "--spool-dir=" + spool,
                                   "--listen-address=127.0.0.1",
                                   absl::StrCat("--port=", *port),
                                   "--metrics-address=127.0.0.1",
                                   absl::StrCat("--metrics-port=", *metrics_port),
                                   "--workers=2"};
  argv.insert(argv.end(), flags.begin(), flags.end());
  absl::StatusOr<std::unique_ptr<ChildProcess>> child =
      ChildProcess::Start(argv, work_dir + "/server.log");
  if (!child.ok()) return child.status();
  std::unique_ptr<ServerProcess> server(new ServerProcess(*std::move(child), *port, *metrics_port));
  const absl::Time give_up = absl::Now() + kStartTimeout;
  while (!Healthy(*metrics_port)) {
    if (!server->process().Running() || absl::Now() > give_up) {
      return absl::UnavailableError("waymesh-server did not start:\n" + server->process().Log());
    }
    absl::SleepFor(absl::Milliseconds(50));
  }
  return server;
}

std::string ServerProcess::target() const { return absl::StrCat("127.0.0.1:", port_); }

uint64_t ServerProcess::RssBytes() const {
  std::ifstream status(absl::StrCat("/proc/", process_->pid(), "/status"));
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) != 0) continue;
    uint64_t kib = 0;
    const std::string digits = line.substr(6, line.find("kB") - 6);
    return absl::SimpleAtoi(absl::StripAsciiWhitespace(digits), &kib) ? kib << 10 : 0;
  }
  return 0;
}

int ServerProcess::OpenDescriptors() const {
  std::error_code ec;
  std::filesystem::directory_iterator fds(absl::StrCat("/proc/", process_->pid(), "/fd"), ec);
  if (ec) return -1;
  return static_cast<int>(std::distance(begin(fds), end(fds)));
}

}  // namespace waymesh::testing
