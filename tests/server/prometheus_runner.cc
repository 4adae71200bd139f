#include "prometheus_runner.h"

#include <httplib.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"

namespace waymesh::testing {
namespace {

constexpr absl::Duration kReadyTimeout = absl::Seconds(30);
constexpr int kStartAttempts = 3;  // the free port may be taken between picking and binding

std::string ScrapeConfig(int target_port) {
  return absl::StrCat(
      "global:\n"
      "  scrape_interval: 1s\n"
      "  scrape_timeout: 1s\n"
      "  evaluation_interval: 1s\n"
      "scrape_configs:\n"
      "  - job_name: waymesh\n"
      "    metrics_path: /metrics\n"
      "    static_configs:\n"
      "      - targets: ['127.0.0.1:",
      target_port, "']\n");
}

absl::StatusOr<std::string> MakeTempDir() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "waymesh-prometheus-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) return absl::InternalError("mkdtemp failed");
  return pattern;
}

// Waits until GET /-/ready answers 200, the process dies, or the timeout passes.
absl::Status WaitReady(ChildProcess& process, int port) {
  httplib::Client client("127.0.0.1", port);
  client.set_connection_timeout(0, 200'000);
  const absl::Time give_up = absl::Now() + kReadyTimeout;
  while (absl::Now() < give_up) {
    if (!process.Running()) return absl::UnavailableError("prometheus exited");
    if (httplib::Result res = client.Get("/-/ready"); res && res->status == 200) {
      return absl::OkStatus();
    }
    absl::SleepFor(absl::Milliseconds(100));
  }
  return absl::DeadlineExceededError("prometheus not ready after 30 s");
}

}  // namespace

absl::StatusOr<std::unique_ptr<PrometheusRunner>> PrometheusRunner::Start(int target_port) {
  absl::StatusOr<std::string> binary = FindProgram("prometheus");
  if (!binary.ok()) return binary.status();
  absl::StatusOr<std::string> dir = MakeTempDir();
  if (!dir.ok()) return dir.status();
  const std::string config = *dir + "/prometheus.yml";
  std::ofstream(config) << ScrapeConfig(target_port);
  absl::Status last = absl::UnknownError("prometheus never started");
  for (int attempt = 0; attempt < kStartAttempts; ++attempt) {
    absl::StatusOr<int> port = PickFreeLoopbackPort();
    if (!port.ok()) return port.status();
    auto process = ChildProcess::Start(
        {*binary, "--config.file=" + config, "--storage.tsdb.path=" + *dir + "/data",
         absl::StrCat("--web.listen-address=127.0.0.1:", *port), "--log.level=info"},
        *dir + "/prometheus.log");
    if (!process.ok()) return process.status();
    last = WaitReady(**process, *port);
    if (last.ok()) {
      return std::unique_ptr<PrometheusRunner>(
          new PrometheusRunner(*dir, *port, std::move(*process)));
    }
    last = absl::Status(last.code(), absl::StrCat(last.message(), "; log:\n", (*process)->Log()));
    (*process)->Stop();
  }
  std::filesystem::remove_all(*dir);
  return last;
}

PrometheusRunner::~PrometheusRunner() {
  process_->Stop();
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

absl::StatusOr<double> PrometheusRunner::QueryScalar(const std::string& promql) {
  httplib::Client client("127.0.0.1", port_);
  client.set_read_timeout(5, 0);
  httplib::Result res =
      client.Get("/api/v1/query", httplib::Params{{"query", promql}}, httplib::Headers{});
  if (!res) {
    return absl::UnavailableError(absl::StrCat("query ", promql, ": ", to_string(res.error())));
  }
  const nlohmann::json body = nlohmann::json::parse(res->body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded() || body.value("status", "") != "success") {
    return absl::InternalError(
        absl::StrCat("query ", promql, ": HTTP ", res->status, " ", res->body));
  }
  const nlohmann::json& data = body["data"];
  nlohmann::json value;
  if (data.value("resultType", "") == "scalar") {
    value = data["result"];
  } else {
    const nlohmann::json& result = data["result"];
    if (!result.is_array() || result.empty()) {
      return absl::NotFoundError(absl::StrCat("query ", promql, ": no series"));
    }
    if (result.size() > 1) {
      return absl::FailedPreconditionError(
          absl::StrCat("query ", promql, ": ", result.size(), " series"));
    }
    value = result[0]["value"];
  }
  double number = 0;
  if (!value.is_array() || value.size() != 2 || !value[1].is_string() ||
      !absl::SimpleAtod(value[1].get<std::string>(), &number)) {
    return absl::InternalError(absl::StrCat("query ", promql, ": odd value ", value.dump()));
  }
  return number;
}

absl::StatusOr<double> PrometheusRunner::WaitFor(const std::string& promql,
                                                 const std::function<bool(double)>& accept,
                                                 absl::Duration timeout) {
  const absl::Time give_up = absl::Now() + timeout;
  absl::StatusOr<double> last = absl::UnknownError("not queried");
  while (true) {
    last = QueryScalar(promql);
    if (last.ok() && accept(*last)) return last;
    if (absl::Now() >= give_up) break;
    absl::SleepFor(absl::Milliseconds(250));
  }
  return absl::DeadlineExceededError(
      absl::StrCat("waited ", absl::FormatDuration(timeout), " for ", promql,
                   "; last: ", last.ok() ? absl::StrCat(*last) : last.status().ToString()));
}

}  // namespace waymesh::testing
