// waymesh-load: a ghz-compatible load generator for any unary gRPC method, driven by a ghz JSON
// config. Exit 0 after a run, 1 when it cannot run, 2 for bad arguments or config.

#include <sched.h>

#include <csignal>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "absl/time/clock.h"
#include "waymesh/loadtest/call_runner.h"
#include "waymesh/loadtest/channel_credentials.h"
#include "waymesh/loadtest/command_line.h"
#include "waymesh/loadtest/csv_report.h"
#include "waymesh/loadtest/descriptor_source.h"
#include "waymesh/loadtest/html_report.h"
#include "waymesh/loadtest/json_report.h"
#include "waymesh/loadtest/load_config.h"
#include "waymesh/loadtest/loopback_host.h"
#include "waymesh/loadtest/request_builder.h"
#include "waymesh/loadtest/run_statistics.h"
#include "waymesh/loadtest/summary_report.h"

namespace {

using namespace waymesh::loadtest;

constexpr int kExitRunFailed = 1;
constexpr int kExitBadConfig = 2;

std::atomic<bool> g_interrupted{false};

void OnInterrupt(int) {
  g_interrupted.store(true);
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the program at once
}

int Fail(int code, const absl::Status& status) {
  std::cerr << "waymesh-load: " << status.message() << "\n";
  return code;
}

// ghz's --cpus: keep this process (and so every thread gRPC starts later) on the first
// `cpus` cores it may use. More than it has is all it has.
absl::Status RestrictToCpus(uint32_t cpus) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (sched_getaffinity(0, sizeof(allowed), &allowed) != 0) {
    return absl::InternalError("--cpus: cannot read this process's CPU affinity");
  }
  cpu_set_t chosen;
  CPU_ZERO(&chosen);
  uint32_t taken = 0;
  for (int cpu = 0; cpu < CPU_SETSIZE && taken < cpus; ++cpu) {
    if (CPU_ISSET(cpu, &allowed)) {
      CPU_SET(cpu, &chosen);
      ++taken;
    }
  }
  if (sched_setaffinity(0, sizeof(chosen), &chosen) != 0) {
    return absl::InternalError("--cpus: cannot set this process's CPU affinity");
  }
  return absl::OkStatus();
}

std::string FormatReport(ReportFormat format, const RunResult& result, const LoadConfig& config,
                         absl::Time date) {
  const LoadReport report = Summarize(result);
  switch (format) {
    case ReportFormat::kJson:
      return JsonReport(report, config, date).dump(2) + "\n";
    case ReportFormat::kCsv:
      return CsvReport(result);
    case ReportFormat::kHtml:
      return HtmlReport(report, config, date);
    case ReportFormat::kSummary:
      break;
  }
  return FormatSummaryReport(report, config.name);
}

int Main(const std::vector<std::string>& args) {
  absl::StatusOr<CommandLine> command_line = ParseCommandLine(args);
  if (!command_line.ok()) return Fail(kExitBadConfig, command_line.status());
  if (command_line->help) {
    std::cout << UsageText();
    return 0;
  }
  absl::StatusOr<LoadConfig> config =
      ResolveConfig(command_line->config_path, command_line->overrides);
  if (!config.ok()) return Fail(kExitBadConfig, config.status());
  const absl::Status host_ok =
      command_line->allow_remote ? CheckHostSyntax(config->host) : CheckLoopbackHost(config->host);
  if (!host_ok.ok()) return Fail(kExitBadConfig, host_ok);
  if (config->cpus > 0) {
    if (absl::Status s = RestrictToCpus(config->cpus); !s.ok()) return Fail(kExitRunFailed, s);
  }

  absl::StatusOr<std::unique_ptr<DescriptorSource>> descriptors =
      config->protoset.empty() ? DescriptorSource::FromProto(config->proto, config->import_paths)
                               : DescriptorSource::FromProtoset(config->protoset);
  if (!descriptors.ok()) return Fail(kExitBadConfig, descriptors.status());
  absl::StatusOr<const google::protobuf::MethodDescriptor*> method =
      (*descriptors)->FindMethod(config->call);
  if (!method.ok()) return Fail(kExitBadConfig, method.status());
  absl::StatusOr<std::vector<std::string>> requests =
      BuildRequests(*(*method)->input_type(), config->data);
  if (!requests.ok()) return Fail(kExitBadConfig, requests.status());
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials =
      MakeChannelCredentials(*config);
  if (!credentials.ok()) return Fail(kExitBadConfig, credentials.status());

  // Check the output file before the run, not after it.
  std::ofstream file;
  if (!command_line->output_path.empty()) {
    file.open(command_line->output_path, std::ios::binary | std::ios::trunc);
    if (!file) {
      return Fail(kExitRunFailed,
                  absl::UnavailableError("cannot write " + command_line->output_path));
    }
  }

  RunPlan plan;
  plan.target = config->host;
  plan.credentials = *credentials;
  plan.ssl_target_name = config->cname;
  plan.method_path = MethodPath(**method);
  plan.requests = *std::move(requests);
  plan.metadata = config->metadata;
  plan.total = config->total;
  plan.duration = config->duration;
  plan.concurrency = static_cast<int>(config->concurrency);
  plan.connections = static_cast<int>(config->connections);
  plan.schedule = config->schedule;
  plan.record_calls = command_line->format == ReportFormat::kCsv;
  plan.timeout = config->timeout;
  plan.connect_timeout = config->connect_timeout;
  plan.interrupt = &g_interrupted;
  std::signal(SIGINT, OnInterrupt);
  const absl::Time date = absl::Now();
  absl::StatusOr<RunResult> result = RunLoad(plan);
  if (!result.ok()) return Fail(kExitRunFailed, result.status());

  const std::string text = FormatReport(command_line->format, *result, *config, date);
  std::ostream& out = command_line->output_path.empty() ? std::cout : file;
  out << text;
  out.flush();
  if (!out) return Fail(kExitRunFailed, absl::UnavailableError("cannot write the report"));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // The generator shares the machine with the server it measures: no lock-order graph for
  // gRPC's mutexes (see waymesh-server's main).
  absl::SetMutexDeadlockDetectionMode(absl::OnDeadlockCycle::kIgnore);
  return Main(std::vector<std::string>(argv + 1, argv + argc));
}
