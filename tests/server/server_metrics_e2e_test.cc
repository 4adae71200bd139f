// End to end: the real waymesh-server binary serves a generated town over gRPC, a real
// Prometheus scrapes its --metrics-port, and the calls come back through Prometheus's query API.

#include <grpcpp/grpcpp.h>
#include <gtest/gtest.h>
#include <httplib.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "child_process.h"
#include "exposition_parser.h"
#include "grpc/health/v1/health.grpc.pb.h"
#include "prometheus_runner.h"
#include "waymesh/demo_world/demo_world.h"
#include "waymesh/format/map_file.h"
#include "waymesh/repair/repair.h"
#include "waymesh/v1/navigation.grpc.pb.h"

namespace waymesh::server {
namespace {

using ::waymesh::testing::ChildProcess;
using ::waymesh::testing::PickFreeLoopbackPort;

constexpr int kOkCalls = 10;

struct TownMap {
  std::string maps_dir;
  Vec3 west_bank;
  Vec3 east_bank;
};

const DemoProbe* FindProbe(const DemoWorldTruth& truth, const char* name) {
  for (const DemoProbe& probe : truth.probes) {
    if (probe.name == name) return &probe;
  }
  return nullptr;
}

// A small demo town compiled into `dir`/town.wmesh, with two probes a path joins.
absl::StatusOr<TownMap> WriteTownMap(const std::string& dir) {
  DemoWorldOptions options;
  options.size = 200;
  absl::StatusOr<DemoWorld> world = GenerateDemoWorld(options);
  if (!world.ok()) return world.status();
  RepairReport report;
  absl::StatusOr<RepairedMesh> repaired =
      RepairMeshes(std::span<const SourceMesh>(&world->mesh, 1), RepairOptions{}, &report);
  if (!repaired.ok()) return repaired.status();
  absl::StatusOr<std::string> bytes = CompileMap(*repaired);
  if (!bytes.ok()) return bytes.status();
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/town.wmesh", std::ios::binary) << *bytes;
  const DemoProbe* west = FindProbe(world->truth, kProbeWestBank);
  const DemoProbe* east = FindProbe(world->truth, kProbeEastBank);
  if (west == nullptr || east == nullptr) return absl::NotFoundError("demo probes missing");
  return TownMap{dir, west->position, east->position};
}

void SetVec(const Vec3& v, waymesh::v1::Vec3* out) {
  out->set_x(v.x);
  out->set_y(v.y);
  out->set_z(v.z);
}

// Waits until the server's health service says SERVING (or the process dies / 30 s pass).
bool WaitServing(ChildProcess& server, grpc::Channel& channel) {
  auto health = grpc::health::v1::Health::NewStub(
      std::shared_ptr<grpc::Channel>(&channel, [](grpc::Channel*) {}));
  const absl::Time give_up = absl::Now() + absl::Seconds(30);
  while (absl::Now() < give_up && server.Running()) {
    grpc::ClientContext context;
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::milliseconds(500));
    grpc::health::v1::HealthCheckRequest request;
    grpc::health::v1::HealthCheckResponse response;
    if (health->Check(&context, request, &response).ok() &&
        response.status() == grpc::health::v1::HealthCheckResponse::SERVING) {
      return true;
    }
    absl::SleepFor(absl::Milliseconds(100));
  }
  return false;
}

grpc::Status FindPath(waymesh::v1::NavigationService::Stub& stub, const std::string& map_id,
                      Vec3 start, Vec3 end, waymesh::v1::FindPathResponse* response) {
  grpc::ClientContext context;
  context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
  waymesh::v1::FindPathRequest request;
  request.set_map_id(map_id);
  SetVec(start, request.mutable_start());
  SetVec(end, request.mutable_end());
  return stub.FindPath(&context, request, response);
}

TEST(ServerMetricsEndToEndTest, PrometheusReadsHandlingSecondsOfRealCalls) {
  const std::string dir =
      (std::filesystem::temp_directory_path() / absl::StrCat("waymesh-metrics-e2e-", getpid()))
          .string();
  std::filesystem::remove_all(dir);
  absl::StatusOr<TownMap> town = WriteTownMap(dir + "/maps");
  ASSERT_TRUE(town.ok()) << town.status();
  absl::StatusOr<int> grpc_port = PickFreeLoopbackPort();
  absl::StatusOr<int> metrics_port = PickFreeLoopbackPort();
  ASSERT_TRUE(grpc_port.ok() && metrics_port.ok());
  auto server = ChildProcess::Start(
      {WAYMESH_SERVER_BIN, "--maps-dir=" + town->maps_dir, absl::StrCat("--port=", *grpc_port),
       absl::StrCat("--metrics-port=", *metrics_port), "--metrics-address=127.0.0.1", "--workers=2",
       "--tile-cache-bytes=67108864"},
      dir + "/server.log");
  ASSERT_TRUE(server.ok()) << server.status();
  // Prometheus applies new scrape targets only every 5 s: start it now so that wait overlaps
  // the server's startup and the calls (the endpoint is scraped as soon as it is up).
  auto prometheus = testing::PrometheusRunner::Start(*metrics_port);
  ASSERT_TRUE(prometheus.ok()) << prometheus.status();
  testing::PrometheusRunner& prom = **prometheus;

  // Retry the connection quickly while the server starts (the default backoff starts at 1 s).
  grpc::ChannelArguments args;
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 50);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 50);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 200);
  auto channel = grpc::CreateCustomChannel(absl::StrCat("127.0.0.1:", *grpc_port),
                                           grpc::InsecureChannelCredentials(), args);
  ASSERT_TRUE(WaitServing(**server, *channel)) << (*server)->Log();

  auto stub = waymesh::v1::NavigationService::NewStub(channel);
  for (int i = 0; i < kOkCalls; ++i) {
    waymesh::v1::FindPathResponse response;
    grpc::Status status = FindPath(*stub, "town", town->west_bank, town->east_bank, &response);
    ASSERT_TRUE(status.ok()) << status.error_message();
    EXPECT_EQ(response.status(), waymesh::v1::PATH_STATUS_COMPLETE);
  }
  const float nan = std::numeric_limits<float>::quiet_NaN();
  waymesh::v1::FindPathResponse ignored;
  EXPECT_EQ(FindPath(*stub, "town", {nan, 0, 0}, town->east_bank, &ignored).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(FindPath(*stub, "no_such_map", town->west_bank, town->east_bank, &ignored).error_code(),
            grpc::StatusCode::NOT_FOUND);

  // The live endpoint itself: valid text format with every invariant, accepted by promtool.
  httplib::Client http("127.0.0.1", *metrics_port);
  httplib::Result scrape = http.Get("/metrics");
  ASSERT_TRUE(scrape) << httplib::to_string(scrape.error());
  absl::StatusOr<testing::Exposition> parsed = testing::ParseExposition(scrape->body);
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_TRUE(testing::CheckExpositionInvariants(*parsed).ok())
      << testing::CheckExpositionInvariants(*parsed);
  std::string promtool_output;
  absl::StatusOr<std::string> promtool = testing::FindProgram("promtool");
  ASSERT_TRUE(promtool.ok()) << promtool.status();
  absl::StatusOr<int> promtool_code =
      testing::RunProgram({*promtool, "check", "metrics"}, scrape->body, &promtool_output);
  EXPECT_TRUE(promtool_code.ok() && *promtool_code == 0) << promtool_output;
  httplib::Result healthz = http.Get("/healthz");
  ASSERT_TRUE(healthz);
  EXPECT_EQ(healthz->status, 200);

  // Through the real Prometheus.
  auto exactly = [](double want) { return [want](double v) { return v == want; }; };
  auto up = prom.WaitFor("up{job=\"waymesh\"}", exactly(1));
  ASSERT_TRUE(up.ok()) << up.status() << "\n" << prom.Log();
  const std::string find_path =
      "grpc_service=\"waymesh.v1.NavigationService\",grpc_method=\"FindPath\",grpc_type=\"unary\"";
  auto count =
      prom.WaitFor(absl::StrCat("sum(grpc_server_handling_seconds_count{", find_path, "})"),
                   exactly(kOkCalls + 2));
  EXPECT_TRUE(count.ok()) << count.status();
  // Every series was scraped in the same pass as the count above, so plain queries suffice.
  auto expect = [&prom](const std::string& query, const std::function<bool(double)>& accept,
                        const char* want) {
    absl::StatusOr<double> value = prom.QueryScalar(query);
    EXPECT_TRUE(value.ok() && accept(*value))
        << query << " should be " << want << ", got "
        << (value.ok() ? absl::StrCat(*value) : value.status().ToString());
  };
  for (const auto& [code, want] :
       {std::pair<const char*, int>{"OK", kOkCalls}, {"InvalidArgument", 1}, {"NotFound", 1}}) {
    expect(absl::StrCat("grpc_server_handled_total{", find_path, ",grpc_code=\"", code, "\"}"),
           exactly(want), "the number of calls with that code");
  }
  expect(absl::StrCat("grpc_server_started_total{", find_path, "}"), exactly(kOkCalls + 2),
         "every call");
  expect("waymesh_path_results_total{status=\"complete\"}", exactly(kOkCalls), "the OK calls");
  // The river crossing's ends are about 20 m apart: searched plainly, not over the map's
  // cluster graph (docs/hierarchy.md: ends closer than 50 m).
  expect("waymesh_path_search_total{kind=\"plain\"}", exactly(kOkCalls), "the OK calls");
  expect("waymesh_path_search_total{kind=\"hierarchical\"}", exactly(0), "0");
  expect(
      "waymesh_search_nodes_expanded_count", [](double v) { return v >= kOkCalls; },
      ">= the OK calls");
  expect("waymesh_maps_loaded", exactly(1), "1");
  expect(
      "waymesh_tile_cache_bytes", [](double v) { return v > 0; }, "> 0 after searches");

  stub.reset();
  channel.reset();
  EXPECT_EQ((*server)->Stop(), 0) << (*server)->Log();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace waymesh::server
