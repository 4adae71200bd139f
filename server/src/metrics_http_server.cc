#include "waymesh/server/metrics_http_server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <atomic>
#include <thread>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "absl/time/time.h"

namespace waymesh::server {
namespace {

// Scrapes are rare and cheap; two threads keep a slow client from blocking Prometheus.
constexpr size_t kHttpThreads = 2;
constexpr time_t kIoTimeoutSeconds = 5;
constexpr absl::Duration kStartTimeout = absl::Seconds(5);
constexpr char kMetricsContentType[] = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace

struct MetricsHttpServer::Impl {
  httplib::Server http;
  std::thread thread;
  int port = 0;
  std::atomic<bool> loop_exited{false};
  std::mutex stop_mu;
  bool stopped = false;
};

MetricsHttpServer::MetricsHttpServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

MetricsHttpServer::~MetricsHttpServer() { Stop(); }

absl::StatusOr<std::unique_ptr<MetricsHttpServer>> MetricsHttpServer::Start(
    const MetricsHttpOptions& options, std::function<std::string()> render,
    std::function<bool()> healthy) {
  if (options.port < 0 || options.port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("metrics port ", options.port, " is outside 0..65535"));
  }
  if (!render) return absl::InvalidArgumentError("metrics server needs a render function");
  auto impl = std::make_unique<Impl>();
  httplib::Server& http = impl->http;
  http.new_task_queue = [] { return new httplib::ThreadPool(kHttpThreads); };
  // SO_REUSEADDR only: httplib's default also sets SO_REUSEPORT, which would let a second
  // server share the port silently and split the scrapes between two processes.
  http.set_socket_options([](int sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  http.set_read_timeout(kIoTimeoutSeconds, 0);
  http.set_write_timeout(kIoTimeoutSeconds, 0);
  http.Get("/metrics",
           [render = std::move(render)](const httplib::Request&, httplib::Response& res) {
             res.set_content(render(), kMetricsContentType);
           });
  http.Get("/healthz",
           [healthy = std::move(healthy)](const httplib::Request&, httplib::Response& res) {
             const bool ok = !healthy || healthy();
             res.status = ok ? 200 : 503;
             res.set_content(ok ? "ok\n" : "not serving\n", "text/plain; charset=utf-8");
           });

  if (options.port == 0) {
    impl->port = http.bind_to_any_port(options.address);
  } else if (http.bind_to_port(options.address, options.port)) {
    impl->port = options.port;
  } else {
    impl->port = -1;
  }
  if (impl->port <= 0) {
    return absl::UnavailableError(
        absl::StrCat("metrics server cannot listen on ", options.address, ":", options.port));
  }
  const int impl_port = impl->port;
  impl->thread = std::thread([impl = impl.get()] {
    impl->http.listen_after_bind();
    impl->loop_exited.store(true);
  });
  // stop() is a no-op until the accept loop runs, so only hand out a server that can be stopped.
  const absl::Time give_up = absl::Now() + kStartTimeout;
  while (!http.is_running() && !impl->loop_exited.load() && absl::Now() < give_up) {
    absl::SleepFor(absl::Milliseconds(1));
  }
  if (!http.is_running()) {
    if (impl->loop_exited.load()) {
      impl->thread.join();
    } else {
      // The thread still uses *impl; leaking it is safer than freeing it under the thread.
      impl->thread.detach();
      (void)impl.release();
    }
    return absl::UnavailableError(
        absl::StrCat("metrics server on ", options.address, ":", impl_port, " did not start"));
  }
  return std::unique_ptr<MetricsHttpServer>(new MetricsHttpServer(std::move(impl)));
}

int MetricsHttpServer::port() const { return impl_->port; }

void MetricsHttpServer::Stop() {
  std::lock_guard<std::mutex> lock(impl_->stop_mu);
  if (impl_->stopped) return;
  impl_->stopped = true;
  impl_->http.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

}  // namespace waymesh::server
